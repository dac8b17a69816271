// A self-signed certificate for 127.0.0.1, made with the openssl CLI (.ci/run installs it), for tests that
// run a real local HTTPS server: its key and certificate as PEM text and the certificate's file (for a
// child's NODE_EXTRA_CA_CERTS). Valid one day.
import { execFileSync } from "node:child_process";
import { readFile } from "node:fs/promises";
import path from "node:path";

export interface SelfSigned {
  key: Buffer;
  cert: Buffer;
  certFile: string;
}

export async function selfSignedCertificate(folder: string): Promise<SelfSigned> {
  const keyFile = path.join(folder, "key.pem");
  const certFile = path.join(folder, "cert.pem");
  execFileSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-days",
      "1",
      "-subj",
      "/CN=127.0.0.1",
      "-addext",
      "subjectAltName=IP:127.0.0.1",
      "-keyout",
      keyFile,
      "-out",
      certFile,
    ],
    { stdio: "ignore" },
  );
  return { key: await readFile(keyFile), cert: await readFile(certFile), certFile };
}
