"""bench.py - flagscope's interpreter benchmark for the python3 workload.

A deterministic mix of what interpreter speed debates measure, in seven
parts, each sized by the SCALE argument (work grows linearly with it):

  nbody     float arithmetic in a loop: 8 bodies under gravity, leapfrog steps
  tasks     objects and method calls: a scheduler passing packets between
            worker, handler and device tasks (the richards kind)
  tree      recursion and polymorphic calls: evaluating expression trees
  json      json.dumps (sorted keys) and json.loads of generated records
  regex     re: parsing, searching and substituting generated log lines
  text      str, dict and list operations: word counts, sorts, joins
  unicode   non-ASCII text: encode/decode, case mapping, format specs

Usage: python bench.py SCALE [PART...]   (all parts when none is named)
       python bench.py --imports-only    (import what the parts use, exit)
       python bench.py --help
The recipe runs SCALE 16 (about 3.3 s of CPU at gcc -O2 here) and trains
profile-guided builds on SCALE 3.

stdout: one line per part, "PART RESULT", the same for every build of the
same CPython at the same SCALE (checksums, counts, energies to 9 digits);
stderr: "PART SECONDS s" per part and "total SECONDS s" (the process's CPU
time, time.process_time).  Inputs come from a linear congruential
generator, never from random, time or hash(): string hashes are randomised
per process, so nothing printed depends on set or hash order.
"""
import json
import math
import re
import sys
import time

MASK = (1 << 61) - 1


class Lcg:
    """The inputs' generator: 64-bit LCG, high bits out."""

    def __init__(self, seed):
        self.state = seed & 0xFFFFFFFFFFFFFFFF

    def next(self, bound):
        self.state = (self.state * 6364136223846793005 + 1442695040888963407) & 0xFFFFFFFFFFFFFFFF
        return (self.state >> 33) % bound

    def real(self):
        return self.next(1 << 30) / float(1 << 30)


def digest(text):
    """Length and a 61-bit residue of TEXT's UTF-8 bytes."""
    data = text.encode("utf-8")
    return "%d:%015x" % (len(data), int.from_bytes(data, "little") % MASK)


# nbody: leapfrog steps of 8 bodies, the energy before and after
def nbody(scale):
    rng = Lcg(1)
    bodies = []
    for _ in range(8):
        pos = [rng.real() * 20 - 10 for _ in range(3)]
        vel = [rng.real() - 0.5 for _ in range(3)]
        bodies.append([pos, vel, 0.5 + rng.real() * 4])
    pairs = [(bodies[i], bodies[j]) for i in range(8) for j in range(i + 1, 8)]
    before = energy(bodies, pairs)
    dt = 0.001
    for _ in range(2000 * scale):
        for (p1, v1, m1), (p2, v2, m2) in pairs:
            dx = p1[0] - p2[0]
            dy = p1[1] - p2[1]
            dz = p1[2] - p2[2]
            d2 = dx * dx + dy * dy + dz * dz + 0.01
            mag = dt / (d2 * math.sqrt(d2))
            b1 = m1 * mag
            b2 = m2 * mag
            v1[0] -= dx * b2
            v1[1] -= dy * b2
            v1[2] -= dz * b2
            v2[0] += dx * b1
            v2[1] += dy * b1
            v2[2] += dz * b1
        for pos, vel, _ in bodies:
            pos[0] += dt * vel[0]
            pos[1] += dt * vel[1]
            pos[2] += dt * vel[2]
    return "energy %.9e -> %.9e" % (before, energy(bodies, pairs))


def energy(bodies, pairs):
    e = 0.0
    for _, (vx, vy, vz), m in bodies:
        e += 0.5 * m * (vx * vx + vy * vy + vz * vz)
    for (p1, _, m1), (p2, _, m2) in pairs:
        d2 = sum((a - b) * (a - b) for a, b in zip(p1, p2)) + 0.01
        e -= m1 * m2 / math.sqrt(d2)
    return e


# tasks: a scheduler runs the highest-priority task that has work; tasks
# pass packets to each other through the scheduler
class Packet:
    __slots__ = ("link", "kind", "dest", "value", "data")

    def __init__(self, kind, dest):
        self.link = None
        self.kind = kind
        self.dest = dest
        self.value = 0
        self.data = [0, 0, 0, 0]


class Task:
    def __init__(self, sched, ident, priority):
        self.sched = sched
        self.ident = ident
        self.priority = priority
        self.inbox = None
        self.held = False

    def deliver(self, packet):
        packet.link = None
        if self.inbox is None:
            self.inbox = packet
            return
        tail = self.inbox
        while tail.link is not None:
            tail = tail.link
        tail.link = packet

    def take(self):
        packet = self.inbox
        if packet is not None:
            self.inbox = packet.link
        return packet

    def ready(self):
        return not self.held and self.inbox is not None


class Idle(Task):
    """Wakes the two devices alternately, RUNS times in all."""

    def __init__(self, sched, ident, runs):
        super().__init__(sched, ident, 0)
        self.runs = runs
        self.rng = Lcg(7)

    def ready(self):
        return self.runs > 0

    def step(self):
        self.runs -= 1
        self.sched.wake("dev_a" if self.rng.next(2) else "dev_b")


class Worker(Task):
    """Fills work packets with letters and sends them to a handler."""

    def __init__(self, sched, ident, priority):
        super().__init__(sched, ident, priority)
        self.letter = 0
        self.turn = 0

    def step(self):
        packet = self.take()
        self.turn ^= 1
        packet.dest = "hnd_a" if self.turn else "hnd_b"
        packet.value = 0
        for i in range(4):
            self.letter = (self.letter + 1) % 26
            packet.data[i] = self.letter
        self.sched.send(packet)


class Handler(Task):
    """Puts the letters of work packets into device packets, one each, for
    its device; a work packet whose letters are all sent goes back."""

    def __init__(self, sched, ident, priority, device):
        super().__init__(sched, ident, priority)
        self.device = device
        self.work = []
        self.carriers = []

    def step(self):
        packet = self.take()
        (self.work if packet.kind == "work" else self.carriers).append(packet)
        if not self.work or not self.carriers:
            return
        job = self.work[0]
        carrier = self.carriers.pop()
        carrier.value = job.data[job.value]
        carrier.dest = self.device
        job.value += 1
        if job.value == 4:
            self.work.pop(0)
            job.dest = "worker"
            self.sched.send(job)
        self.sched.send(carrier)


class Device(Task):
    """Consumes one letter per packet and sends the packet back."""

    def __init__(self, sched, ident, priority, handler):
        super().__init__(sched, ident, priority)
        self.handler = handler
        self.held = True

    def step(self):
        packet = self.take()
        self.sched.output(self.ident, packet.value)
        packet.dest = self.handler
        self.held = True
        self.sched.send(packet)


class Scheduler:
    def __init__(self, runs):
        self.tasks = {}
        self.checksum = 0
        self.letters = 0
        self.steps = 0
        for task in (Idle(self, "idle", runs), Worker(self, "worker", 1000),
                     Handler(self, "hnd_a", 2000, "dev_a"), Handler(self, "hnd_b", 3000, "dev_b"),
                     Device(self, "dev_a", 4000, "hnd_a"), Device(self, "dev_b", 5000, "hnd_b")):
            self.tasks[task.ident] = task
        self.order = sorted(self.tasks.values(), key=lambda t: -t.priority)
        for _ in range(2):
            self.tasks["worker"].deliver(Packet("work", "worker"))
        for name in ("hnd_a", "hnd_b"):
            for _ in range(3):
                self.tasks[name].deliver(Packet("device", name))

    def send(self, packet):
        self.tasks[packet.dest].deliver(packet)

    def wake(self, name):
        self.tasks[name].held = False

    def output(self, device, value):
        self.letters += 1
        self.checksum = (self.checksum * 31 + value + len(device)) % MASK

    def run(self):
        while True:
            for task in self.order:
                if task.ready():
                    break
            else:
                return
            self.steps += 1
            task.step()


def tasks(scale):
    sched = Scheduler(8000 * scale)
    sched.run()
    return "steps %d letters %d checksum %x" % (sched.steps, sched.letters, sched.checksum)


# tree: random expression trees evaluated for many variable bindings
class Num:
    def __init__(self, value):
        self.value = value

    def eval(self, env):
        return self.value


class Var:
    def __init__(self, name):
        self.name = name

    def eval(self, env):
        return env[self.name]


class Add:
    def __init__(self, left, right):
        self.left, self.right = left, right

    def eval(self, env):
        return (self.left.eval(env) + self.right.eval(env)) & 0xFFFFFFFF


class Mul:
    def __init__(self, left, right):
        self.left, self.right = left, right

    def eval(self, env):
        return (self.left.eval(env) * self.right.eval(env)) & 0xFFFFFFFF


class If:
    def __init__(self, test, yes, no):
        self.test, self.yes, self.no = test, yes, no

    def eval(self, env):
        return self.yes.eval(env) if self.test.eval(env) & 1 else self.no.eval(env)


class Let:
    def __init__(self, name, value, body):
        self.name, self.value, self.body = name, value, body

    def eval(self, env):
        inner = dict(env)
        inner[self.name] = self.value.eval(env)
        return self.body.eval(inner)


def make_tree(rng, depth, names):
    if depth == 0 or rng.next(8) == 0:
        return Var(names[rng.next(len(names))]) if rng.next(2) else Num(rng.next(1000))
    kind = rng.next(4)
    if kind == 0:
        return Add(make_tree(rng, depth - 1, names), make_tree(rng, depth - 1, names))
    if kind == 1:
        return Mul(make_tree(rng, depth - 1, names), make_tree(rng, depth - 1, names))
    if kind == 2:
        return If(make_tree(rng, depth - 1, names), make_tree(rng, depth - 1, names),
                  make_tree(rng, depth - 1, names))
    name = "v%d" % len(names)
    return Let(name, make_tree(rng, depth - 1, names), make_tree(rng, depth - 1, names + [name]))


def tree(scale):
    rng = Lcg(3)
    trees = [make_tree(rng, 9, ["x", "y", "z"]) for _ in range(40)]
    total = 0
    for i in range(12 * scale):
        env = {"x": i, "y": i * 7 + 1, "z": i ^ 0x5A5A}
        for t in trees:
            total = (total * 1000003 + t.eval(env)) % MASK
    return "evaluations %d checksum %x" % (12 * scale * len(trees), total)


# json: generated records through dumps and loads
WORDS = ["alpha", "beta", "gamma", "delta", "épsilon", "ζeta", "ηta", "θeta", "kappa", "lambda",
         "mü", "nü", "中文", "日本語", "😀smile", "quote\"d", "back\\slash", "tab\there", "nl\nline"]


def record(rng, depth):
    rec = {
        "id": rng.next(1 << 40),
        "name": " ".join(WORDS[rng.next(len(WORDS))] for _ in range(1 + rng.next(4))),
        "score": rng.next(1 << 30) / 1024.0 - 5000.0,
        "ratio": rng.real(),
        "flags": [rng.next(2) == 1 for _ in range(rng.next(5))],
        "tags": {WORDS[rng.next(len(WORDS))]: rng.next(100) for _ in range(rng.next(4))},
        "none": None,
    }
    if depth > 0:
        rec["children"] = [record(rng, depth - 1) for _ in range(rng.next(3))]
    return rec


def json_part(scale):
    rng = Lcg(5)
    pieces = []
    for _ in range(40 * scale):
        data = [record(rng, 2) for _ in range(8)]
        text = json.dumps(data, sort_keys=True)
        back = json.loads(text)
        again = json.dumps(back, sort_keys=True, ensure_ascii=False, indent=1)
        if json.loads(again) != data:
            raise SystemExit("json: a round trip changed the data")
        pieces.append(text[-40:])
        pieces.append(again[:40])
    return "documents %d %s" % (40 * scale, digest("".join(pieces)))


# regex: log lines parsed, searched and rewritten
LOG = re.compile(r'(?P<ip>\d{1,3}(?:\.\d{1,3}){3}) - (?P<user>\w+|-) \[(?P<day>\d\d)/(?P<mon>[A-Z][a-z]{2})/'
                 r'(?P<year>\d{4}):(?P<time>[\d:]+)\] "(?P<method>GET|POST|PUT) (?P<path>/[^ ?"]*)'
                 r'(?:\?(?P<query>[^ "]*))? HTTP/1\.[01]" (?P<status>\d{3}) (?P<size>\d+|-)')
PARAM = re.compile(r"([a-z_]+)=([^&]*)")
BOT = re.compile(r"bot|crawler|spider", re.IGNORECASE)
NUMBERS = re.compile(r"\d+")


def log_lines(rng, count):
    months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    users = ["-", "alice", "bob", "carol", "dave"]
    agents = ["Mozilla/5.0", "curl/7.88", "Googlebot/2.1", "SpiderMan crawler", "Wget/1.21"]
    lines = []
    for _ in range(count):
        path = "/" + "/".join(WORDS[rng.next(10)] for _ in range(1 + rng.next(3)))
        query = "&".join("%s=%d" % (WORDS[rng.next(4)], rng.next(10000)) for _ in range(rng.next(3)))
        lines.append('%d.%d.%d.%d - %s [%02d/%s/2026:%02d:%02d:%02d] "%s %s%s HTTP/1.1" %d %s "%s"' % (
            rng.next(256), rng.next(256), rng.next(256), rng.next(256), users[rng.next(5)],
            1 + rng.next(28), months[rng.next(12)], rng.next(24), rng.next(60), rng.next(60),
            ("GET", "POST", "PUT")[rng.next(3)], path, "?" + query if query else "",
            (200, 200, 200, 301, 404, 500)[rng.next(6)], rng.next(100000) if rng.next(8) else "-",
            agents[rng.next(5)]))
    return lines


def regex(scale):
    rng = Lcg(9)
    lines = log_lines(rng, 2000)
    statuses = {}
    params = 0
    bots = 0
    size = 0
    rewritten = []
    for _ in range(2 * scale):
        for line in lines:
            m = LOG.match(line)
            if m is None:
                raise SystemExit("regex: a generated line did not parse: " + line)
            statuses[m.group("status")] = statuses.get(m.group("status"), 0) + 1
            if m.group("size") != "-":
                size += int(m.group("size"))
            if m.group("query"):
                params += len(PARAM.findall(m.group("query")))
            if BOT.search(line):
                bots += 1
        rewritten.append(NUMBERS.sub(lambda n: str(len(n.group())), "\n".join(lines[::50])))
    counts = " ".join("%s:%d" % kv for kv in sorted(statuses.items()))
    return "status %s params %d bots %d bytes %d %s" % (counts, params, bots, size, digest("".join(rewritten)))


# text: words counted, sorted, joined and sliced
def text(scale):
    rng = Lcg(11)
    vocabulary = ["%s%d" % (WORDS[rng.next(12)][:3], rng.next(300)) for _ in range(3000)]
    words = [vocabulary[rng.next(len(vocabulary))] for _ in range(20000)]
    result = []
    for round_ in range(6 * scale):
        counts = {}
        for w in words:
            counts[w] = counts.get(w, 0) + 1
        top = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:20]
        line = " ".join(w.upper() for w, _ in top)
        pieces = line.split(" ")
        pieces.reverse()
        joined = "-".join(p[::-1] for p in pieces)
        starts = sum(1 for w in words if w.startswith(("alp", "gam", "ka")))
        lengths = [len(w) for w in words[round_::7]]
        merged = {**counts, **{w: -1 for w in words[:100]}}
        keys = sorted(k for k in merged if merged[k] > 2)
        result.append("%s|%d|%d|%d|%s" % (joined, starts, sum(lengths), len(keys), keys[round_ % len(keys)]))
        words = words[1:] + words[:1]
    return "rounds %d %s" % (6 * scale, digest("\n".join(result)))


# unicode: non-ASCII text through codecs, case mapping and formatting
def unicode_part(scale):
    rng = Lcg(13)
    chars = "aeiouxyzÄÖÜßéèçñøåœæΣσςλπЖжЯя中文字日本語한국어😀🚀 "
    sentences = ["".join(chars[rng.next(len(chars))] for _ in range(40 + rng.next(80))) for _ in range(300)]
    out = []
    for i in range(20 * scale):
        for j, s in enumerate(sentences):
            upper = s.upper()
            folded = s.casefold()
            utf16 = s.encode("utf-16-le")
            utf8 = s.encode("utf-8")
            back = utf8.decode("utf-8")
            if back != s or utf16.decode("utf-16-le") != s:
                raise SystemExit("unicode: a round trip changed the text")
            if j % 10 == i % 10:
                out.append(f"{i:04d}|{len(upper):>5}|{len(folded):<5}|{len(utf8):08x}|{s[:6]:^10}|"
                           f"{(len(utf16) / (len(s) or 1)):.4f}|{folded.count('ss'):+d}")
    return "lines %d %s" % (len(out), digest("\n".join(out)))


PARTS = [("nbody", nbody), ("tasks", tasks), ("tree", tree), ("json", json_part),
         ("regex", regex), ("text", text), ("unicode", unicode_part)]


def main(argv):
    if argv[1:] == ["--imports-only"]:
        return 0
    if argv[1:2] in (["--help"], ["-h"]):
        sys.stdout.write(__doc__)
        return 0
    if len(argv) < 2 or not argv[1].isdigit() or int(argv[1]) < 1:
        sys.stderr.write("usage: bench.py SCALE [PART...]  (SCALE: a positive integer; parts: %s)\n"
                         % " ".join(name for name, _ in PARTS))
        return 2
    scale = int(argv[1])
    chosen = argv[2:] or [name for name, _ in PARTS]
    unknown = [name for name in chosen if name not in dict(PARTS)]
    if unknown:
        sys.stderr.write("bench.py: unknown part %s (parts: %s)\n"
                         % (unknown[0], " ".join(name for name, _ in PARTS)))
        return 2
    start = time.process_time()
    for name, part in PARTS:
        if name in chosen:
            t0 = time.process_time()
            print(name, part(scale), flush=True)
            sys.stderr.write("%s %.3f s\n" % (name, time.process_time() - t0))
    sys.stderr.write("total %.3f s\n" % (time.process_time() - start))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
