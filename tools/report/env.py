"""The environment a report was built in: tool versions, commit. Missing tools are recorded as
absent, never guessed."""
import shutil, subprocess

TOOLS = [  # (name, command, which line of the output to keep: a substring or None = first)
    ("spin", ["spin", "-V"], None),
    ("frama-c", ["frama-c", "-version"], None),
    ("why3", ["why3", "--version"], None),
    ("z3", ["z3", "--version"], None),
    ("cvc4", ["cvc4", "--version"], "version"),
    ("cvc5", ["cvc5", "--version"], "version"),
    ("gcc", ["gcc", "--version"], None),
    ("python3", ["python3", "--version"], None),
    ("aarch64-linux-gnu-gcc", ["aarch64-linux-gnu-gcc", "--version"], None),
    ("arm-linux-gnueabihf-gcc", ["arm-linux-gnueabihf-gcc", "--version"], None),
    ("riscv64-linux-gnu-gcc", ["riscv64-linux-gnu-gcc", "--version"], None),
    ("powerpc64le-linux-gnu-gcc", ["powerpc64le-linux-gnu-gcc", "--version"], None),
    ("arm-none-eabi-gcc", ["arm-none-eabi-gcc", "--version"], None),
    ("qemu-user", ["qemu-aarch64", "--version"], None),
    ("qemu-system-arm", ["qemu-system-arm", "--version"], None),
]
OPTIONAL = {"cvc5", "aarch64-linux-gnu-gcc", "arm-linux-gnueabihf-gcc", "riscv64-linux-gnu-gcc",
            "powerpc64le-linux-gnu-gcc", "arm-none-eabi-gcc", "qemu-user", "qemu-system-arm"}


def _run(cmd):
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=20)
        return (p.stdout + p.stderr).strip()
    except (OSError, subprocess.TimeoutExpired):
        return None


def tool_versions():
    out = {}
    for name, cmd, pick in TOOLS:
        if not shutil.which(cmd[0]):
            if name not in OPTIONAL:
                out[name] = None
            continue
        text = _run(cmd)
        if text is None:
            out[name] = None
            continue
        lines = [l.strip() for l in text.split("\n") if l.strip()]
        if pick:
            lines = [l for l in lines if pick in l.lower()] or lines
        out[name] = lines[0][:120] if lines else ""
    return out


def git_info():
    head = _run(["git", "rev-parse", "HEAD"])
    st = _run(["git", "status", "--porcelain", "--untracked-files=no"])
    return {"commit": head if head and len(head) == 40 else None,
            "dirty": bool(st) if st is not None else None}
