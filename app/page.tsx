"use client";
import { Workspace } from "./components/workspace.tsx";

export default function Home() {
  return <Workspace />;
}
