// The seccomp program bubblewrap installs in every sandboxed process (`--seccomp FD`). Two rules:
//
// 1. No set-user-ID or set-group-ID bit, ever (network on or off). A sandboxed process can make a file in
//    the workdir and mark it S_ISUID/S_ISGID: bwrap's binds are `nosuid` inside the sandbox only, so the
//    file lands in the workdir with the bits on, owned by the server's user — root, when the server runs
//    as root — and any local user who can reach the workdir runs it as that user. Nothing an agent does
//    needs those bits, so every system call that can set them is refused with EPERM when the mode it asks
//    for carries either: chmod, fchmod, fchmodat, fchmodat2, creat, mknod, mknodat, and open/openat with
//    O_CREAT or O_TMPFILE. openat2 takes its mode in a struct a filter cannot read, so it is answered
//    ENOSYS (programs fall back to openat, which the rule sees).
// 2. With network off, no Unix-domain socket. `--unshare-net` already cuts TCP/UDP and abstract sockets,
//    but a socket *file* of the host (a docker.sock, an ssh or gpg agent, a session bus that starts
//    services) lives in the read-only filesystem, and connecting to it needs no write. socketpair() (pipes
//    between processes of the call) stays allowed.
// io_uring is refused in both: its operations (IORING_OP_SOCKET, IORING_OP_OPENAT) would bypass both rules.
//
// Classic BPF over `struct seccomp_data { int nr; u32 arch; u64 ip; u64 args[6]; }`, little-endian.

/** The system calls the rules look at, by architecture (arm64 has no chmod, creat, mknod or open). */
interface Architecture {
  audit: number;
  socket: number;
  /** Calls that take a mode, and the argument that holds it. */
  modes: { nr: number; arg: number }[];
  /** Calls that take a mode only with O_CREAT or O_TMPFILE: the flags argument, then the mode. */
  creates: { nr: number; flags: number; mode: number }[];
  openat2: number;
}

const ARCHITECTURES: Record<string, Architecture | undefined> = {
  x64: {
    audit: 0xc000003e,
    socket: 41,
    modes: [
      { nr: 90, arg: 1 }, // chmod
      { nr: 91, arg: 1 }, // fchmod
      { nr: 268, arg: 2 }, // fchmodat
      { nr: 452, arg: 2 }, // fchmodat2
      { nr: 85, arg: 1 }, // creat
      { nr: 133, arg: 1 }, // mknod
      { nr: 259, arg: 2 }, // mknodat
    ],
    creates: [
      { nr: 2, flags: 1, mode: 2 }, // open
      { nr: 257, flags: 2, mode: 3 }, // openat
    ],
    openat2: 437,
  },
  arm64: {
    audit: 0xc00000b7,
    socket: 198,
    modes: [
      { nr: 52, arg: 1 }, // fchmod
      { nr: 53, arg: 2 }, // fchmodat
      { nr: 452, arg: 2 }, // fchmodat2
      { nr: 33, arg: 2 }, // mknodat
    ],
    creates: [{ nr: 56, flags: 2, mode: 3 }], // openat
    openat2: 437,
  },
};
/** io_uring_setup/enter/register (same numbers on both). */
const IO_URING_SYSCALLS = [425, 426, 427];
/** x32 system calls on x86-64 carry this bit; they are refused (the filter checks the 64-bit numbers). */
const X32_SYSCALL_BIT = 0x40000000;
const AF_UNIX = 1;
const SET_ID_BITS = 0o6000;
/** O_CREAT | O_TMPFILE (O_TMPFILE includes O_DIRECTORY's bit; either bit means "a mode follows" to test). */
const CREATE_FLAGS = 0o100 | 0o20200000;

const BPF_LD_W_ABS = 0x20;
const BPF_JEQ_K = 0x15;
const BPF_JGE_K = 0x35;
const BPF_JSET_K = 0x45;
const BPF_RET_K = 0x06;
const SECCOMP_RET_ALLOW = 0x7fff0000;
const SECCOMP_RET_KILL_PROCESS = 0x80000000;
const SECCOMP_RET_ERRNO = 0x00050000;
const EPERM = 1;
const EACCES = 13;
const ENOSYS = 38;

const OFFSET_NR = 0;
const OFFSET_ARCH = 4;
/** The low 32 bits of argument `n` (modes and flags fit in them). */
const argLow = (n: number): number => 16 + 8 * n;

type Target = "allow" | "eperm" | "eacces" | "enosys" | "kill" | `next:${number}`;

/** One instruction; a jump names where it goes when true and when false (a label, or the next line). */
interface Step {
  code: number;
  k: number;
  jt?: Target;
  jf?: Target;
}

interface Instruction {
  code: number;
  jt: number;
  jf: number;
  k: number;
}

export interface FilterOptions {
  /** Refuse Unix-domain sockets (the session's network is off). */
  refuseUnixSockets: boolean;
}

/**
 * The filter for this machine, or undefined where the architecture is not known here (the sandbox then
 * runs without it: the network namespace is the only wall, and set-ID bits are not refused).
 */
export function sandboxSeccompFilter(
  options: FilterOptions,
  architecture: string = process.arch,
): Uint8Array | undefined {
  const native = ARCHITECTURES[architecture];
  if (!native) return undefined;
  return assemble(steps(native, options));
}

function steps(native: Architecture, options: FilterOptions): Step[] {
  const list: Step[] = [];
  const load = (offset: number) => list.push({ code: BPF_LD_W_ABS, k: offset });
  const jumpIf = (code: number, k: number, jt: Target, jf: Target) => list.push({ code, k, jt, jf });
  const next = (): Target => `next:${list.length + 1}`;
  load(OFFSET_ARCH);
  // A foreign architecture (32-bit code on a 64-bit kernel) would number system calls differently.
  jumpIf(BPF_JEQ_K, native.audit, next(), "kill");
  load(OFFSET_NR);
  jumpIf(BPF_JGE_K, X32_SYSCALL_BIT, "eacces", next());
  for (const call of IO_URING_SYSCALLS) jumpIf(BPF_JEQ_K, call, "eacces", next());
  jumpIf(BPF_JEQ_K, native.openat2, "enosys", next());
  // Each call that takes a mode: load the number again (a mode test replaced it), test the call, then
  // its mode. Three steps per call: [nr?] → [load mode] → [set-ID bits?].
  for (const call of native.modes) {
    load(OFFSET_NR);
    jumpIf(BPF_JEQ_K, call.nr, next(), `next:${list.length + 3}`);
    load(argLow(call.arg));
    jumpIf(BPF_JSET_K, SET_ID_BITS, "eperm", next());
  }
  for (const call of native.creates) {
    load(OFFSET_NR);
    jumpIf(BPF_JEQ_K, call.nr, next(), `next:${list.length + 5}`);
    load(argLow(call.flags));
    jumpIf(BPF_JSET_K, CREATE_FLAGS, next(), `next:${list.length + 3}`);
    load(argLow(call.mode));
    jumpIf(BPF_JSET_K, SET_ID_BITS, "eperm", next());
  }
  if (options.refuseUnixSockets) {
    load(OFFSET_NR);
    jumpIf(BPF_JEQ_K, native.socket, next(), "allow");
    load(argLow(0));
    // The process sees "permission denied", as for a socket file it may not open.
    jumpIf(BPF_JEQ_K, AF_UNIX, "eacces", "allow");
  }
  list.push({ code: BPF_RET_K, k: SECCOMP_RET_ALLOW });
  return list;
}

/** The returns every jump may name, appended after the program's own steps. */
const ENDINGS: [Target, number][] = [
  ["allow", SECCOMP_RET_ALLOW],
  ["eperm", SECCOMP_RET_ERRNO | EPERM],
  ["eacces", SECCOMP_RET_ERRNO | EACCES],
  ["enosys", SECCOMP_RET_ERRNO | ENOSYS],
  ["kill", SECCOMP_RET_KILL_PROCESS],
];

/** Resolves labels into cBPF's forward jump offsets (counted from the next instruction) and encodes. */
function assemble(list: Step[]): Uint8Array {
  const at = new Map<Target, number>(ENDINGS.map(([label], index) => [label, list.length + index]));
  const offset = (from: number, target: Target | undefined): number => {
    if (target === undefined) return 0;
    const to = target.startsWith("next:") ? Number(target.slice(5)) : at.get(target)!;
    const jump = to - (from + 1);
    if (jump < 0 || jump > 255) throw new Error(`seccomp jump out of range: ${from} → ${to}`);
    return jump;
  };
  const program: Instruction[] = [
    ...list.map((step, index) => ({
      code: step.code,
      k: step.k,
      jt: offset(index, step.jt),
      jf: offset(index, step.jf),
    })),
    ...ENDINGS.map(([, value]) => ({ code: BPF_RET_K, k: value, jt: 0, jf: 0 })),
  ];
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
