// A seccomp program for bubblewrap (`--seccomp FD`) that keeps a sandboxed process from opening Unix-domain
// sockets. `--unshare-net` already cuts TCP/UDP and abstract sockets, but a socket *file* of the host (a
// docker.sock, an ssh or gpg agent, a session bus that starts services) lives in the read-only filesystem,
// and connecting to it needs no write. socketpair() (pipes between processes of the call) stays allowed.
//
// Classic BPF over `struct seccomp_data { int nr; u32 arch; u64 ip; u64 args[6]; }`, little-endian.

/** AUDIT_ARCH_* and __NR_socket of the architectures the sandbox runs on. */
const ARCHITECTURES: Record<string, { audit: number; socket: number } | undefined> = {
  x64: { audit: 0xc000003e, socket: 41 },
  arm64: { audit: 0xc00000b7, socket: 198 },
};
/** io_uring_setup/enter/register (same numbers on both): its IORING_OP_SOCKET would bypass the filter. */
const IO_URING_SYSCALLS = [425, 426, 427];
/** x32 system calls on x86-64 carry this bit; they are refused (the filter checks the 64-bit numbers). */
const X32_SYSCALL_BIT = 0x40000000;
const AF_UNIX = 1;

const BPF_LD_W_ABS = 0x20;
const BPF_JEQ_K = 0x15;
const BPF_JGE_K = 0x35;
const BPF_RET_K = 0x06;
const SECCOMP_RET_ALLOW = 0x7fff0000;
const SECCOMP_RET_KILL_PROCESS = 0x80000000;
const SECCOMP_RET_ERRNO = 0x00050000;
const EACCES = 13;

const OFFSET_NR = 0;
const OFFSET_ARCH = 4;
const OFFSET_ARG0_LOW = 16;

interface Instruction {
  code: number;
  jt: number;
  jf: number;
  k: number;
}

/**
 * The filter for this machine, or undefined where the architecture is not known here (the sandbox then
 * runs without it and the network namespace is the only wall).
 */
export function unixSocketFilter(architecture: string = process.arch): Uint8Array | undefined {
  const native = ARCHITECTURES[architecture];
  if (!native) return undefined;
  const load = (offset: number): Instruction => ({ code: BPF_LD_W_ABS, jt: 0, jf: 0, k: offset });
  const ret = (value: number): Instruction => ({ code: BPF_RET_K, jt: 0, jf: 0, k: value });
  // Jumps are counted from the next instruction; DENY and ALLOW are the last two.
  const toEnd = (fromIndex: number, target: "deny" | "allow", length: number): number =>
    length - 2 + (target === "deny" ? 0 : 1) - (fromIndex + 1);
  const body = (length: number): Instruction[] => {
    const list: Instruction[] = [];
    list.push(load(OFFSET_ARCH));
    // A foreign architecture (32-bit code on a 64-bit kernel) would number system calls differently.
    list.push({ code: BPF_JEQ_K, jt: 1, jf: 0, k: native.audit });
    list.push(ret(SECCOMP_RET_KILL_PROCESS));
    list.push(load(OFFSET_NR));
    list.push({ code: BPF_JGE_K, jt: toEnd(list.length, "deny", length), jf: 0, k: X32_SYSCALL_BIT });
    for (const call of IO_URING_SYSCALLS)
      list.push({ code: BPF_JEQ_K, jt: toEnd(list.length, "deny", length), jf: 0, k: call });
    list.push({ code: BPF_JEQ_K, jt: 0, jf: toEnd(list.length, "allow", length), k: native.socket });
    list.push(load(OFFSET_ARG0_LOW));
    list.push({
      code: BPF_JEQ_K,
      jt: toEnd(list.length, "deny", length),
      jf: toEnd(list.length, "allow", length),
      k: AF_UNIX,
    });
    // The process sees "permission denied", as for a socket file it may not open.
    list.push(ret(SECCOMP_RET_ERRNO | EACCES));
    list.push(ret(SECCOMP_RET_ALLOW));
    return list;
  };
  // The length is fixed by the shape; one dry pass measures it so the jump offsets can be computed.
  const program = body(body(0).length);
  const bytes = new Uint8Array(program.length * 8);
  const view = new DataView(bytes.buffer);
  program.forEach((instruction, index) => {
    view.setUint16(index * 8, instruction.code, true);
    view.setUint8(index * 8 + 2, instruction.jt);
    view.setUint8(index * 8 + 3, instruction.jf);
    view.setUint32(index * 8 + 4, instruction.k >>> 0, true);
  });
  return bytes;
}
