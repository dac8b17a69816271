"use client";

export default function Home() {
  return (
    <main className="p-6" data-testid="placeholder">
      <h1 className="text-xl font-semibold">PseudoClaude Playground</h1>
      <p>The workspace is being built.</p>
    </main>
  );
}
