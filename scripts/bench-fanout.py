#!/usr/bin/env python3
"""One change reaching every participant of a zone (SPEC §11): 1 owner + 50 participants,
all real release `peershared` daemons on 127.0.0.1, for scripts/bench.

    scripts/bench-fanout.py --bin=DIR [--participants=50] [--rounds=30] [--quick]
                            [--markdown=FILE] [--round-timeout=10] [--first-timeout=30]
                            [--gap=0.25] [--idle-seconds=3] [--log-level=info] [--keep]
                            [--mesh-dials=N] [--mesh-timeout=90] [--only=fanout] [--perf=FILE]

--only=NAME[,NAME...]: the figures to run, as scripts/bench passes its selection on; this
script has one, `fanout` (both variants below): without it in the list, it does nothing.
--quick: 5 participants (6 daemons), 5 rounds, a 10 s warm-up wait: a smoke test of the script.
--gap: seconds between rounds. --idle-seconds: the daemons' idle CPU is measured that long
before each variant's rounds, to set it apart from the rounds' CPU time. --log-level: the daemons'. --keep: keep the temp dir (logs).
--perf=FILE: `perf record -a -g` over each variant's rounds, into FILE.a and FILE.b (the
writer's pid is logged), for profiling; the figures then include perf's own load.
--markdown: appends this script's rows to FILE in the daemon table's columns (the table's
header first when FILE is empty), as scripts/bench-daemon.py writes its table.
--mesh-dials=N: writes `max_mesh_dials = N` into every daemon's config file (`--config`);
without it the daemons keep their default (16). --mesh-timeout: after set-up, how long to
wait (bounded) for every participant to be connected to the owner and to the fellows the
ring of dials gives it (min(2N, P-1) of the P-1 others), before the resources are read.

Set-up: the daemons start in parallel (port 0, each its own state dir and control socket,
READY=1 on a datagram socket of ours); the owner adds one photo and shares it with public
permission read-write; the participants accept the URL (8 at a time, retried while the
owner answers owner_busy) and `sync` with `wait` until each holds the photo and its data.
Each round then adds a new tag to the photo at the writer, over its control socket, and
times the tag's arrival at every other participant from `history` events on a `watch`
stream opened on each before the rounds (so no polling latency). Times are from just
before the writer's request is sent; the writer's own response time is reported too. The
rows' limit column divides by the cores the CPU every daemon spent from each request to the
last arrival (above its idle rate), plus this script's own reading of the watch streams: on
one machine a round cannot end before that work has run. The rest of a round's CPU, the
change's signed sets 0.1 s later, is reported apart.

(a) The owner online writes. (b) The owner stopped (SIGTERM), the first participant writes
and the 49 others should see it; its rounds start once the participants' CPU is back near
its idle rate (at most 30 s: the owner's departure costs them a burst of work, reported in a
row of its own, which the rounds would otherwise measure in some runs and not in others).
One unmeasured warm-up round precedes each variant's rounds, waiting up to --first-timeout
for every target (in (b) participants may first have to find each other). The targets the warm-up reached are the ones the rounds wait for: when that is
not all of them (in (b), a participant sends only what it wrote, so only the fellows the
writer is connected to can see its change), the rows say "reached N of M" and give the times
of those N; after the rounds every stream is read for --round-timeout more, and the rows say
how many of the others saw any round's tag by then. A round that does not reach every target
the warm-up reached within --round-timeout ends the variant: its rows say "not reached".

Every wait is bounded. Daemons run in one process group of their own and get SIGTERM when
this script dies (PR_SET_PDEATHSIG); atexit and SIGTERM/SIGINT/SIGHUP handlers stop them all
and remove the temp dirs, on every exit path.
"""
import atexit, ctypes, json, math, os, selectors, shutil, signal, socket, subprocess, sys, tempfile, time
from bench_watch import Refused, Watch, one_round  # scripts/bench_watch.py, beside this script
from concurrent.futures import ThreadPoolExecutor

ARGS = dict(a.split("=", 1) if "=" in a else (a, "1") for a in sys.argv[1:])
QUICK = "--quick" in ARGS
FIGURES = ("fanout",)
ONLY = set(filter(None, ARGS["--only"].split(","))) if "--only" in ARGS else set(FIGURES)
if ONLY - set(FIGURES):
    sys.exit(f"bench-fanout: unknown figure(s) {', '.join(sorted(ONLY - set(FIGURES)))}; the names are "
             f"{', '.join(FIGURES)}")
if "fanout" not in ONLY:
    sys.exit(0)  # nothing selected: before the temp dir and the handlers below
BIN = ARGS.get("--bin", ".build/release")
PARTICIPANTS = int(ARGS.get("--participants", "5" if QUICK else "50"))
ROUNDS = int(ARGS.get("--rounds", "5" if QUICK else "30"))
ROUND_TIMEOUT = float(ARGS.get("--round-timeout", "10"))
FIRST_TIMEOUT = float(ARGS.get("--first-timeout", "10" if QUICK else "30"))
GAP = float(ARGS.get("--gap", "0.25"))  # between rounds: acknowledgements settle
IDLE_SECONDS = float(ARGS.get("--idle-seconds", "3"))  # CPU baseline before each variant's rounds
MESH_DIALS = int(ARGS["--mesh-dials"]) if "--mesh-dials" in ARGS else None  # None: the daemon's default
MESH_TIMEOUT = float(ARGS.get("--mesh-timeout", "30" if QUICK else "90"))
DEFAULT_MESH_DIALS = 16  # the daemon's default max_mesh_dials (config/peershared.conf)
WORK = tempfile.mkdtemp(prefix="peershare-bench-fanout-")
DAEMONS = []
PENDING_AFTER_SYNC = []  # (participant, seconds) whose photo was pending after `sync` with `wait`
RETRIED_SYNCS = []  # (participant, unreachable) of every `sync` that reached not everyone
# (participant, message) of every accept that timed out and was tried again: with dozens
# joining at once on a loaded 2-core machine, the owner has answered a join after more than
# the joiner's 10 s (a known weakness, docs/PERFORMANCE-NOTES.md); counted, not hidden.
RETRIED_ACCEPTS = []
PGID = None
LIBC = ctypes.CDLL(None, use_errno=True)
CLK_TCK = os.sysconf("SC_CLK_TCK")
T0 = time.monotonic()


def log(*a):
    print(f"bench-fanout [{time.monotonic() - T0:6.1f} s]:", *a, file=sys.stderr, flush=True)


def loadavg():
    return " ".join(open("/proc/loadavg").read().split()[:3])


def cleanup():
    alive = [d.proc for d in DAEMONS if d.proc and d.proc.poll() is None]
    if PGID is not None:
        try:
            os.killpg(PGID, signal.SIGTERM)
        except ProcessLookupError:
            pass
    deadline = time.monotonic() + 15
    for p in alive:
        try:
            p.wait(max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            pass
    if PGID is not None:
        try:
            os.killpg(PGID, signal.SIGKILL)
        except ProcessLookupError:
            pass
    for p in alive:
        if p.poll() is None:
            p.kill()
            p.wait()
    if "--keep" in ARGS:
        log(f"kept {WORK}")
    else:
        shutil.rmtree(WORK, ignore_errors=True)


atexit.register(cleanup)
for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
    signal.signal(sig, lambda s, f: sys.exit(128 + s))


def die_with_parent():
    LIBC.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


class Daemon:
    """One peershared with its own state dir and control socket."""

    def __init__(self, name):
        self.name = name
        self.dir = os.path.join(WORK, name)
        os.makedirs(self.dir)
        self.sock = os.path.join(self.dir, "control.sock")
        self.proc = None
        self.notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.notify.bind(os.path.join(self.dir, "notify.sock"))
        self.notify.setblocking(False)

    def spawn(self):
        """From the main thread only (PR_SET_PDEATHSIG follows the spawning thread)."""
        global PGID
        env = dict(os.environ, NOTIFY_SOCKET=os.path.join(self.dir, "notify.sock"))
        config = []
        if MESH_DIALS is not None:
            path = os.path.join(self.dir, "peershared.conf")
            with open(path, "w") as f:
                f.write(f"max_mesh_dials = {MESH_DIALS}\n")
            config = ["--config", path]
        with open(os.path.join(self.dir, "peershared.log"), "ab") as logf:
            self.proc = subprocess.Popen(
                [f"{BIN}/peershared", *config, "--state-dir", os.path.join(self.dir, "state"), "--control-socket",
                 self.sock, "--listen", "127.0.0.1:0", "--log-level", ARGS.get("--log-level", "info")],
                stdin=subprocess.DEVNULL, stdout=logf, stderr=logf,
                env=env, process_group=0 if PGID is None else PGID, preexec_fn=die_with_parent)
        DAEMONS.append(self)
        if PGID is None:
            PGID = self.proc.pid

    def request(self, command, args=None, timeout=20):
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
            s.settimeout(timeout)
            s.connect(self.sock)
            s.sendall((json.dumps({"id": 1, "command": command, "args": args or {}}) + "\n").encode())
            buf = b""
            while not buf.endswith(b"\n"):
                chunk = s.recv(65536)
                if not chunk:
                    raise RuntimeError(f"{self.name}: {command}: connection closed without an answer")
                buf += chunk
        resp = json.loads(buf)
        if not resp.get("ok"):
            raise Refused(f"{self.name}: {command}", resp.get("error"))
        return resp["result"]

    def stop(self, timeout=15):
        self.proc.terminate()
        try:
            self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            log(f"{self.name} did not stop within {timeout} s of SIGTERM; killing it")
            self.proc.kill()
            self.proc.wait()

    def cpu_seconds(self):
        fields = open(f"/proc/{self.proc.pid}/stat").read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / CLK_TCK

    def status_field(self, key):
        for line in open(f"/proc/{self.proc.pid}/status"):
            if line.startswith(key + ":"):
                return int(line.split()[1])
        return None


def start_all(daemons, timeout=180):
    """Spawns every daemon at once, then waits for each READY=1."""
    t0 = time.monotonic()
    for d in daemons:
        d.spawn()
    waiting = {d.notify.fileno(): d for d in daemons}
    sel = selectors.DefaultSelector()
    for d in daemons:
        sel.register(d.notify, selectors.EVENT_READ, d)
    deadline = t0 + timeout
    ready = 0
    while waiting:
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError(f"{len(waiting)} of {len(daemons)} daemons sent no READY=1 within {timeout} s "
                               f"(logs under {WORK}; run with --keep to keep them)")
        for key, _ in sel.select(min(left, 5)):
            d = key.data
            msg = d.notify.recv(4096).decode(errors="replace")
            if "READY=1" in msg.split("\n") and d.notify.fileno() in waiting:
                del waiting[d.notify.fileno()]
                sel.unregister(d.notify)
                ready += 1
                if ready % 10 == 0 or not waiting:
                    log(f"{ready} of {len(daemons)} daemons ready")
        for d in waiting.values():
            if d.proc.poll() is not None:
                raise RuntimeError(f"{d.name} exited with {d.proc.returncode} before READY=1 (log: {d.dir})")
    sel.close()
    for d in daemons:
        d.notify.close()
    return time.monotonic() - t0


def accept_all(participants, url, share, timeout=180):
    """Each participant accepts the URL and syncs until it holds the photo with its data."""
    deadline = time.monotonic() + timeout
    done = []

    def join(d):
        delay = 0.05
        while True:
            try:
                d.request("accept", {"url": url}, timeout=60)
                break
            except Refused as e:
                timed_out = e.code == "protocol_error" and "timed out" in str(e)
                if (e.code != "owner_busy" and not timed_out) or time.monotonic() + delay > deadline:
                    raise
                if timed_out:
                    RETRIED_ACCEPTS.append((d.name, str(e)))
                time.sleep(delay)  # the owner asked us to come back later, or was too slow
                delay = min(delay * 2, 1.0)
        # `sync` with `wait` answers in sync with the owner listed as unreachable when its
        # dials failed (the owner refuses handshakes past max_incoming_handshakes while
        # dozens dial at once): then again, until the owner was reached.
        while True:
            left = max(1, int(deadline - time.monotonic()))
            result = d.request("sync", {"wait": True, "timeout": left}, timeout=left + 10)
            if not result.get("unreachable"):
                break
            RETRIED_SYNCS.append((d.name, result["unreachable"]))
            if time.monotonic() > deadline:
                raise TimeoutError(f"{d.name} could not reach the owner: {result['unreachable']}")
        # `sync` with `wait` should include photo data; with dozens joining at once it has
        # answered while the photo was still pending (see docs/PERFORMANCE-NOTES.md): polled
        # then, bounded, and counted.
        # Counted only when the first listing after the answer lacks the photo's data (the
        # listing's own round trip under load is not a delay).
        synced = time.monotonic()
        missing = False
        while True:
            photos = d.request("photo.list", {"share": share})
            if len(photos) == 1 and not photos[0].get("pending"):
                break
            missing = True
            if time.monotonic() > deadline:
                raise TimeoutError(f"{d.name} said it was in sync but still holds {photos}")
            time.sleep(0.05)
        if missing:
            PENDING_AFTER_SYNC.append((d.name, time.monotonic() - synced))
        done.append(d)
        if len(done) % 10 == 0 or len(done) == len(participants):
            log(f"{len(done)} of {len(participants)} participants hold the photo")

    with ThreadPoolExecutor(8) as pool:
        for f in [pool.submit(join, d) for d in participants]:
            f.result()


def percentile(values, p):
    """Nearest rank: with fewer than 100 values, p99 is the maximum."""
    s = sorted(values)
    return s[max(0, math.ceil(p / 100 * len(s)) - 1)]


def drain(watches, seconds):
    """Reads every watch stream for `seconds` (bounded): arrivals after a round ended."""
    sel = selectors.DefaultSelector()
    for w in watches:
        sel.register(w.sock, selectors.EVENT_READ, w)
    deadline = time.monotonic() + seconds
    try:
        while (left := deadline - time.monotonic()) > 0:
            for key, _ in sel.select(left):
                key.data.read(time.monotonic())
    finally:
        sel.close()


def run_variant(label, writer, targets, photo, cpu_daemons, ids):
    # Tag names unique to the variant: a tag the photo already has adds nothing.
    key = label.split(")")[0].lstrip("(")
    watches = [Watch(d, ZONE) for d in targets]
    log(f"{label}: watching {len(watches)} participants; warm-up round (not counted, ≤ {FIRST_TIMEOUT:.0f} s)")
    load = loadavg()
    # Whom the writer is connected to when the variant starts: in (b) the only targets it
    # can reach (a participant sends only what it wrote, and nobody relays it).
    connected = {p["peer_id"] for p in writer.request("peers") if p.get("connected")}
    target_ids = {ids[d.name] for d in targets}
    result = {"label": label, "load": load, "targets": len(targets), "rounds": [], "failure": None,
              "partial": None, "writer_connected": len(connected & target_ids)}
    _, arrivals = one_round(writer, watches, photo, f"fanout-{key}-warmup", FIRST_TIMEOUT)
    reached = [w for w, a in zip(watches, arrivals) if a is not None]
    reached_ids = {ids[w.daemon.name] for w in reached}
    log(f"{label}: the writer is connected to {result['writer_connected']} of the {len(targets)} targets; "
        f"the warm-up reached {len(reached)} of them within {FIRST_TIMEOUT:.0f} s; reached but not connected "
        f"at the start: {len(reached_ids - connected)}; connected but not reached: "
        f"{len((connected & target_ids) - reached_ids)}")
    if not reached:
        result["failure"] = f"not reached: 0 of {len(targets)} after {FIRST_TIMEOUT:.0f} s (warm-up round)"
        log(f"{label}: {result['failure']}")
        return result
    if len(reached) < len(targets):
        result["partial"] = len(reached)
        result["targets_reached"] = len(reached)
    # Idle baseline: what the daemons burn with nothing to do (timers), to set apart from the
    # rounds' CPU time.
    idle0, t_idle = sum(d.cpu_seconds() for d in cpu_daemons), time.monotonic()
    time.sleep(IDLE_SECONDS)
    result["idle_cpu_per_s"] = (sum(d.cpu_seconds() for d in cpu_daemons) - idle0) / (time.monotonic() - t_idle)
    perf = None
    if "--perf" in ARGS:
        path = f"{ARGS['--perf']}.{key}"
        perf = subprocess.Popen(["perf", "record", "-q", "-a", "-g", "-F", "499", "-o", path],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(1)  # perf's start-up, outside the rounds
        log(f"{label}: perf record -a into {path}; the writer is pid {writer.proc.pid}")
    cpu0 = [d.cpu_seconds() for d in cpu_daemons]
    result["window_cpu"], result["window_wall"], result["window_own"] = 0.0, 0.0, 0.0
    wall0 = time.monotonic()
    names = []
    for r in range(ROUNDS):
        time.sleep(GAP)
        name = f"fanout-{key}-{r:03d}"
        names.append(name)
        window0, t_window = sum(d.cpu_seconds() for d in cpu_daemons), time.monotonic()
        own0 = time.process_time()
        responded, arrivals = one_round(writer, watches, photo, name, ROUND_TIMEOUT, awaited=reached)
        result["window_own"] += time.process_time() - own0
        result["window_cpu"] += sum(d.cpu_seconds() for d in cpu_daemons) - window0
        result["window_wall"] += time.monotonic() - t_window
        got = sorted(a for w, a in zip(watches, arrivals) if a is not None and w in reached)
        if len(got) < len(reached):
            of = f" (of {len(targets)})" if result["partial"] else ""
            result["failure"] = (f"not reached: {len(got)} of {len(reached)}{of} after {ROUND_TIMEOUT:.0f} s "
                                 f"(round {r + 1} of {ROUNDS})")
            log(f"{label}: {result['failure']}")
            break
        # The targets the writer was not connected to get the change relayed (in (b)): the last of
        # them, and the last of the others, apart.
        last = {"direct": None, "relayed": None}
        for w, a in zip(watches, arrivals):
            if a is not None:
                kind = "direct" if ids[w.daemon.name] in connected else "relayed"
                last[kind] = max(a, last[kind] or a)
        result["rounds"].append({"response": responded, "first": got[0], "median": got[len(got) // 2],
                                 "last": got[-1], "last_direct": last["direct"], "last_relayed": last["relayed"]})
        log(f"{label} round {r + 1}/{ROUNDS}: first {got[0] * 1000:.1f} ms, all {len(got)} {got[-1] * 1000:.1f} ms "
            f"(writer answered after {responded * 1000:.1f} ms)")
    result["cpu"] = [d.cpu_seconds() - c for d, c in zip(cpu_daemons, cpu0)]
    result["wall"] = time.monotonic() - wall0
    if perf:
        perf.send_signal(signal.SIGINT)
        perf.wait(timeout=60)
    result["load_after"] = loadavg()
    if result["partial"]:
        # The others: did any round's tag reach them late? Read on for a bounded while.
        drain(watches, ROUND_TIMEOUT)
        others = [w for w in watches if w not in reached]
        late = [w for w in others if any(link for link in w.links)]
        result["late"] = (len(late), len(others), ROUND_TIMEOUT)
        log(f"{label}: of the {len(others)} targets the warm-up did not reach, {len(late)} saw any tag "
            f"{ROUND_TIMEOUT:.0f} s after the last round")
    for w in watches:
        w.sock.close()
    return result


def ms(v):
    return f"{v * 1000:.1f} ms"


def rows_for(result):
    """(figure, target, measured, syncthing, ratio, limit) rows, as bench-daemon.py's."""
    rounds = result["rounds"]
    n = len(rounds)
    who = result["label"]
    figure = f"one tag visible at all {result['targets']} other participants, {who}{mesh_label()}"
    if not rounds:
        return [(figure, "p50 ≤ 25 ms, p99 ≤ 60 ms", f"{result['failure']}; load {result['load']}", "—", "—", "—")]
    reach = ""
    if result["partial"]:
        late, others, wait = result["late"]
        reach = (f"reached {result['partial']} of {result['targets']} (the writer was connected to "
                 f"{result['writer_connected']}); the other {others}: {late} saw any tag {wait:.0f} s after the "
                 f"last round; times of the {result['partial']} reached: ")
    last = [r["last"] for r in rounds]
    first = [r["first"] for r in rounds]
    resp = [r["response"] for r in rounds]
    p99_note = " = max" if n < 100 else ""
    text = reach + (f"p50 {ms(percentile(last, 50))}, p99{p99_note} {ms(percentile(last, 99))}, min {ms(min(last))}, "
            f"max {ms(max(last))} over {n} rounds")
    if result["failure"]:
        text += f"; then {result['failure']}"
    text += (f"; first participant (one hop) p50 {ms(percentile(first, 50))}, max {ms(max(first))}; "
             f"writer's answer p50 {ms(percentile(resp, 50))}; load {result['load']}")
    cores = os.cpu_count() or 1
    per_receiver = receiver_cpu_per_round(result)
    receivers = result["partial"] or result["targets"]
    window = window_cpu_per_round(result)
    own = result["window_own"] / len(rounds)
    limit = (f"CPU on one machine: from the request to the last arrival, the daemons spent "
             f"{window * 1000:.0f} ms of CPU per round above their idle rate, writer included, and this "
             f"script reading the {receivers} watch streams {own * 1000:.0f} ms "
             f"(this run) ÷ {cores} cores ≈ {(window + own) / cores * 1000:.0f} ms; over the whole round {receivers} receivers × "
             f"{per_receiver * 1000:.1f} ms each, the rest of it being the change's signed sets, sent "
             "0.1 s later (`ownSetsDelay`) and kept between rounds; one hop: loopback + one SQLite commit, "
             "~1–2 ms")
    return [(figure, "p50 ≤ 25 ms, p99 ≤ 60 ms", text, "—", "—", limit)]


def mesh_label():
    dials = f"max_mesh_dials = {MESH_DIALS}" if MESH_DIALS is not None else f"max_mesh_dials default ({DEFAULT_MESH_DIALS})"
    return f" ({dials})"


def connected_peers(d):
    return {p["peer_id"] for p in d.request("peers") if p.get("connected")}


def wait_for_mesh(participants, timeout):
    """Waits (bounded) until every participant is connected to the owner and to the fellows
    the ring of dials gives it; returns (expected, connected count per participant, seconds)."""
    dials = DEFAULT_MESH_DIALS if MESH_DIALS is None else MESH_DIALS
    expected = min(len(participants) - 1, 2 * dials) + 1
    t0 = time.monotonic()
    while True:
        counts = [len(connected_peers(d)) for d in participants]
        if min(counts) >= expected or time.monotonic() - t0 > timeout:
            return expected, counts, time.monotonic() - t0
        time.sleep(1)


def spread(values):
    """median (min–max) of integers."""
    v = sorted(values)
    return f"{v[len(v) // 2]} ({v[0]}–{v[-1]})" if v[0] != v[-1] else f"{v[0]}"


def receiver_cpu_per_round(result):
    """CPU seconds each receiving daemon spent per round, above its idle rate (the daemons
    other than the writer, shared by those the rounds reached)."""
    cpu, n = result["cpu"], len(result["rounds"])
    idle = result["idle_cpu_per_s"] * result["wall"]
    return (sum(cpu[1:]) - idle * len(cpu[1:]) / len(cpu)) / n / (result["partial"] or len(cpu[1:]))


def window_cpu_per_round(result):
    """CPU seconds all the daemons spent per round from the writer's request until the last
    target saw the change, above their idle rate: what has to fit on the cores before the
    round can end. /proc's 10 ms ticks per daemon and reading, summed over every daemon and
    round, average out."""
    idle = result["idle_cpu_per_s"] * result["window_wall"]
    return (result["window_cpu"] - idle) / len(result["rounds"])


def last_by_kind(rounds):
    """The median over rounds of the last arrival among the targets the writer is connected
    to, and among those it is not (relayed), for the log; a kind no round had is left out."""
    text = ""
    for kind, label in (("direct", "last the writer is connected to"), ("relayed", "last it is not (relayed)")):
        values = [x[f"last_{kind}"] for x in rounds if x[f"last_{kind}"] is not None]
        if values:
            text += f"; {label} {ms(percentile(values, 50))}"
    return text


def settle(daemons, idle_rate, limit=30.0):
    """After the owner's stop the participants adjust (each tells its peers its new
    neighbours, redials the owner, starts relaying): waits, at most `limit` seconds, until
    their CPU over a second is back within 50 % (or 20 ms/s) of `idle_rate` twice in a row,
    so that (b)'s rounds measure the change, not the owner's departure. Returns the seconds
    waited, the CPU seconds above idle spent meanwhile, and whether they settled."""
    start = t_prev = time.monotonic()
    prev = sum(d.cpu_seconds() for d in daemons)
    calm, extra = 0, 0.0
    while time.monotonic() - start < limit:
        time.sleep(1)
        now, t = sum(d.cpu_seconds() for d in daemons), time.monotonic()
        rate = (now - prev) / (t - t_prev)
        extra += max(0.0, rate - idle_rate) * (t - t_prev)
        prev, t_prev = now, t
        calm = calm + 1 if rate <= max(idle_rate * 1.5, idle_rate + 0.02) else 0
        if calm >= 2:
            return t - start, extra, True
    return time.monotonic() - start, extra, False


def main():
    global ZONE
    log(f"{PARTICIPANTS + 1} daemons, {ROUNDS} rounds; load {loadavg()}; bin {BIN}; work {WORK}")
    owner = Daemon("owner")
    participants = [Daemon(f"p{i:02d}") for i in range(PARTICIPANTS)]
    started = start_all([owner] + participants)
    log(f"all {PARTICIPANTS + 1} daemons ready after {started:.1f} s")
    photo_file = os.path.join(WORK, "photo.jpg")
    with open(photo_file, "wb") as f:
        f.write(b"\xff\xd8\xff\xe0" + os.urandom(20_000))
    photo = owner.request("photo.add", {"file": photo_file})["id"]
    share = owner.request("share.create", {"photo": photo, "title": "fanout", "public": "read-write"})
    ZONE = share["share"]
    t = time.monotonic()
    accept_all(participants, share["url"], ZONE)
    log(f"every participant accepted and holds the photo after {time.monotonic() - t:.1f} s")
    for name, message in RETRIED_ACCEPTS:
        log(f"{name}: an accept timed out and was tried again: {message}")
    for name, unreachable in RETRIED_SYNCS:
        log(f"{name}: a sync had to be repeated: unreachable {unreachable}")
    for name, seconds in PENDING_AFTER_SYNC:
        log(f"{name}: its photo was still pending after `sync` with `wait` answered; it arrived "
            f"{seconds:.2f} s later")
    ids = {d.name: d.request("status")["peer_id"] for d in DAEMONS}
    expected, counts, waited = wait_for_mesh(participants, MESH_TIMEOUT)
    mesh = (f"participants connected to {spread(counts)} peers each (median (min–max); the owner and the "
            f"ring of dials gives {expected}), {sum(c >= expected for c in counts)} of {len(counts)} "
            f"with all {expected}, after waiting {waited:.1f} s (≤ {MESH_TIMEOUT:.0f} s)")
    log(mesh)
    connected = len(connected_peers(owner))
    rss = sum(d.status_field("VmRSS") for d in DAEMONS) / 1024
    owner_rss = owner.status_field("VmRSS") / 1024
    part_rss = sorted(d.status_field("VmRSS") / 1024 for d in participants)
    threads = owner.status_field("Threads")
    part_threads = [d.status_field("Threads") for d in participants]
    setup = (f"after set-up{mesh_label()}: {PARTICIPANTS + 1} daemons use {rss:.0f} MiB RSS in all (owner "
             f"{owner_rss:.1f} MiB, a participant {part_rss[len(part_rss) // 2]:.1f} MiB median); owner has "
             f"{threads} threads and {connected} connected peers; a participant has {spread(part_threads)} threads "
             f"(median (min–max)); {mesh}; load {loadavg()}")
    log(setup)

    results = [run_variant("(a) owner online, owner writes", owner, participants, photo, [owner] + participants,
                           ids)]
    log(f"stopping the owner (SIGTERM); load {loadavg()}")
    stopped_at = time.monotonic()
    owner.stop()
    stop_wait = time.monotonic() - stopped_at
    idle_rate = results[0].get("idle_cpu_per_s", 0.0) * len(participants) / (len(participants) + 1)
    waited, extra, settled = settle(participants, idle_rate)
    departure = (f"{'back' if settled else 'not back'} within 50 % of their idle rate with the owner online "
                 f"({idle_rate * 1000:.0f} ms/s) {waited:.0f} s after the owner exited ({stop_wait:.1f} s after "
                 f"SIGTERM); {extra:.2f} CPU-s above that rate meanwhile, all {len(participants)} together")
    log(f"after the owner's stop: the participants' CPU {departure}")
    results.append(run_variant("(b) owner stopped, a participant writes", participants[0], participants[1:],
                               photo, participants, ids))

    rows = []
    for r in results:
        rows += rows_for(r)
        if r["rounds"]:
            cpu = r["cpu"]
            n = len(r["rounds"])
            idle = r["idle_cpu_per_s"] * r["wall"]
            per_round = (sum(cpu) - idle) / n * 1000
            log(f"{r['label']}: CPU of the daemons over the {n} rounds ({r['wall']:.1f} s wall): "
                f"{sum(cpu):.2f} s in all, of which {idle:.2f} s would have been spent idle "
                f"({r['idle_cpu_per_s'] * 1000:.0f} ms/s measured over {IDLE_SECONDS:.0f} s before): "
                f"{per_round:.0f} ms per round; the writer {cpu[0] / n * 1000:.1f} ms per round, "
                f"the {r['partial'] or r['targets']} receivers {receiver_cpu_per_round(r) * 1000:.1f} ms "
                f"each per round; from each request to the last arrival {window_cpu_per_round(r) * 1000:.0f} ms "
                f"per round ({r['window_wall'] / n * 1000:.0f} ms wall); load after {r['load_after']}")
            mids = [x["median"] for x in r["rounds"]]
            n = r["partial"] or r["targets"]
            log(f"{r['label']}: arrivals per round, medians over rounds: first "
                f"{ms(percentile([x['first'] for x in r['rounds']], 50))}, arrival {n // 2 + 1} of {n} "
                f"{ms(percentile(mids, 50))}, last {ms(percentile([x['last'] for x in r['rounds']], 50))}"
                + last_by_kind(r["rounds"]))
    rows.append((f"the owner stopped with {PARTICIPANTS} participants connected: their CPU until it settles "
                 "(measured before (b)'s rounds)", "—", departure, "—", "—", "—"))
    rows.append((f"{PARTICIPANTS + 1} daemons after the fan-out set-up{mesh_label()}: total RSS; threads per daemon",
                 "—", f"{rss:.0f} MiB in all (owner {owner_rss:.1f} MiB, a participant "
                 f"{part_rss[len(part_rss) // 2]:.1f} MiB median); owner {threads} threads, {connected} peers "
                 f"connected; a participant {spread(part_threads)} threads, {spread(counts)} peers connected; "
                 f"accepts that timed out (10 s) and were tried again: {len(RETRIED_ACCEPTS)} of {PARTICIPANTS}",
                 "—", "—", "—"))
    print(setup)
    for r in rows:
        print(" | ".join(r))
    if "--markdown" in ARGS:
        path = ARGS["--markdown"]
        header = not os.path.exists(path) or os.path.getsize(path) == 0
        with open(path, "a") as f:
            if header:
                f.write("| figure | target | PeerShare | Syncthing 1.19, same run | PeerShare vs Syncthing | "
                        "physical limit |\n| --- | --- | --- | --- | --- | --- |\n")
            for r in rows:
                f.write("| " + " | ".join(r) + " |\n")
    log(f"done in {time.monotonic() - T0:.0f} s")


if __name__ == "__main__":
    main()
