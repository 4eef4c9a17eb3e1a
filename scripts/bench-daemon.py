#!/usr/bin/env python3
"""Daemon-level figures of SPEC §11 and Syncthing side by side, for scripts/bench.

    scripts/bench-daemon.py --bin DIR --bench-table FILE --markdown OUT [--skip-syncthing]
                            [--only=NAME[,NAME...]]

--bin: release bin dir holding peershared, peershare and peershare-bench.
--bench-table: the markdown table peershare-bench wrote (PeerShare's initial-sync figure is
read from it, for the ratio; the raw SQLite insert rate, for the join's physical limit).
Writes a second markdown table to OUT and prints it.
--only: runs only the named figures (default: all of them), names:
  syncthing    Syncthing 1.19: initial sync of the 1,000 × 100 KB files, one new file, start-up
               to connected, RSS (the comparison column of the other rows)
  daemon-sync  initial sync of the same files between two peershared daemons (median of 3)
  ready        start-up to READY=1, fresh and existing state dir
  connected    start-up to connected with its peers (participant restarted)
  idle         daemon idle with 100,000 photos: CPU and RSS (and READY=1 with them)
  gallery      web gallery's first screen with 100,000 photos (the same filled daemon)
  join         participants joining a zone of 100,000 photos with tags and ratings, one after
               the other (--join-runs, 3): time (median and range),
               peak RSS of both daemons, CPU (bench_join)
  hostile      1,000 hostile inbound connections held open at the owner: tag latency before,
               during and after, the owner's threads and RSS (bench_hostile)
--keep: keeps the temp dir (the daemons' logs) and says where.
--perf-join=FILE: `perf record` of both daemons during each timed join, written to
FILE.SETPHOTOS.PARTICIPANT.
--join-runs=N: joins per variant, each by a fresh participant of the same filled owner (default 3).
--settle=SECONDS: on ext4 without a journal, how long to wait before the file-creating figures
(default 70; see settle_filesystem).
Every wait is bounded; daemons and Syncthing instances are killed and temp dirs removed on
every exit path (atexit + SIGTERM/SIGINT handlers).
"""
import atexit, json, math, os, random, re, resource, selectors, shutil, signal, socket, statistics
from bench_watch import Watch, one_round  # scripts/bench_watch.py, beside this script
import subprocess, sys, http.client, tempfile, threading, time, urllib.parse, urllib.request
import xml.etree.ElementTree as ET

ARGS = dict(a.split("=", 1) if "=" in a else (a, "1") for a in sys.argv[1:])
BIN = ARGS.get("--bin", ".build/release")
FIGURES = ("syncthing", "daemon-sync", "ready", "connected", "idle", "gallery", "join", "hostile")
ONLY = set(filter(None, ARGS["--only"].split(","))) if "--only" in ARGS else set(FIGURES)
if ONLY - set(FIGURES):
    sys.exit(f"bench-daemon: unknown figure(s) {', '.join(sorted(ONLY - set(FIGURES)))}; "
             f"the names are {', '.join(FIGURES)}")
if "--skip-syncthing" in ARGS:
    ONLY.discard("syncthing")
WORK = tempfile.mkdtemp(prefix="peershare-bench-daemon-")
PROCS = []  # every child we spawned
ROWS = []   # (figure, target, measured, syncthing, ratio, limit)
CLK_TCK = os.sysconf("SC_CLK_TCK")


def wanted(name):
    return name in ONLY


def loadavg():
    return " ".join(open("/proc/loadavg").read().split()[:3])


def log(*a):
    print("bench-daemon:", *a, file=sys.stderr, flush=True)


def cleanup():
    for p in PROCS:
        if p.poll() is None:
            p.terminate()
    deadline = time.monotonic() + 5
    for p in PROCS:
        try:
            p.wait(max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()
    if "--keep" in ARGS:
        log(f"kept {WORK}")
    else:
        shutil.rmtree(WORK, ignore_errors=True)


atexit.register(cleanup)
for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
    signal.signal(sig, lambda s, f: sys.exit(128 + s))


def spawn(argv, **kw):
    p = subprocess.Popen(argv, stdin=subprocess.DEVNULL, **kw)
    PROCS.append(p)
    return p


def stop(p, timeout=10):
    if p.poll() is None:
        p.terminate()
        try:
            p.wait(timeout)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()


def wait_until(what, cond, timeout, interval=0.005):
    deadline = time.monotonic() + timeout
    while True:
        r = cond()
        if r:
            return r
        if time.monotonic() > deadline:
            raise TimeoutError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(interval)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def fmt(v, unit):
    if v is None:
        return "—"
    if unit == "s" and v < 1:
        return f"{v * 1000:.0f} ms"
    if unit == "s":
        return f"{v:.2f} s"
    if unit == "ms":
        return f"{v:.1f} ms"
    if unit == "%":
        return f"{v:.2f} %"
    if unit == "MiB":
        return f"{v:.1f} MiB"
    return f"{v} {unit}"


def versus(ps, st):
    """PeerShare/Syncthing, and how many times faster (or slower) PeerShare is."""
    if not ps or not st:
        return "—"
    how = f"{st / ps:.1f}× faster" if ps <= st else f"{ps / st:.1f}× slower"
    return f"{ps / st:.3f} ({how})"


def row(figure, target, measured, syncthing="—", ratio="—", limit="—"):
    ROWS.append((figure, target, measured, syncthing, ratio, limit))
    log(f"{figure}: {measured} (Syncthing {syncthing}, ratio {ratio})")


def proc_cpu_times(pid):
    """User and system CPU seconds of a process so far."""
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return int(fields[11]) / CLK_TCK, int(fields[12]) / CLK_TCK  # utime, stime


def proc_cpu_seconds(pid):
    return sum(proc_cpu_times(pid))


def proc_status(pid, key):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith(key + ":"):
            return int(line.split()[1]) / 1024  # kB -> MiB
    return None


# ---------------------------------------------------------------------------------------
# PeerShare daemon
# ---------------------------------------------------------------------------------------

class Daemon:
    """One peershared with its own state dir and control socket, READY=1 on our socket."""

    def __init__(self, name, state=None):
        self.name = name
        self.dir = os.path.join(WORK, name)
        os.makedirs(self.dir, exist_ok=True)
        self.state = state or os.path.join(self.dir, "state")
        self.sock = os.path.join(self.dir, "control.sock")
        self.notify_path = os.path.join(self.dir, "notify.sock")
        self.proc = None

    def start(self, timeout=30):
        """Spawns; returns seconds from spawn to READY=1."""
        if os.path.exists(self.notify_path):
            os.unlink(self.notify_path)
        notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        notify.bind(self.notify_path)
        notify.settimeout(timeout)
        env = dict(os.environ, NOTIFY_SOCKET=self.notify_path)
        logf = open(os.path.join(self.dir, "peershared.log"), "ab")
        try:
            t0 = time.monotonic()
            # PEERSHARE_BENCH_WRAP="NAME-PREFIX:COMMAND ..." runs daemons whose name starts with
            # NAME-PREFIX under COMMAND (a profiler: valgrind --tool=massif, perf record).
            wrap = os.environ.get("PEERSHARE_BENCH_WRAP", "")
            prefix, _, command = wrap.partition(":")
            wrapper = command.split() if wrap and os.path.basename(self.dir).startswith(prefix) else []
            self.proc = spawn(wrapper + [f"{BIN}/peershared", "--state-dir", self.state, "--control-socket", self.sock,
                               "--listen", "127.0.0.1:0", "--web-listen", "127.0.0.1:0"],
                              env=env, stdout=logf, stderr=logf)
            self.spawned = t0
            deadline = t0 + timeout
            while True:
                notify.settimeout(max(0.01, deadline - time.monotonic()))
                try:
                    msg = notify.recv(4096).decode(errors="replace")
                except socket.timeout:
                    raise TimeoutError(f"no READY=1 from peershared within {timeout} s (log: {self.dir})")
                if "READY=1" in msg.split("\n"):
                    return time.monotonic() - t0
        finally:
            notify.close()
            logf.close()

    def stop(self):
        if self.proc:
            stop(self.proc)
            self.proc = None

    def request(self, command, args=None, timeout=10):
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
            s.settimeout(timeout)
            s.connect(self.sock)
            s.sendall((json.dumps({"id": 1, "command": command, "args": args or {}}) + "\n").encode())
            buf = b""
            while not buf.endswith(b"\n"):
                chunk = s.recv(65536)
                if not chunk:
                    break
                buf += chunk
        resp = json.loads(buf)
        if not resp.get("ok"):
            raise RuntimeError(f"{command}: {resp.get('error')}")
        return resp["result"]

    def cli(self, *argv, timeout=60):
        out = subprocess.run([f"{BIN}/peershare", "--socket", self.sock, "--json", *argv], capture_output=True,
                             timeout=timeout, text=True)
        if out.returncode != 0:
            raise RuntimeError(f"peershare {' '.join(argv)}: {out.stderr.strip()} {out.stdout.strip()}")
        return json.loads(out.stdout) if out.stdout.strip() else None


def bench_ready(starts):
    times = []
    for i in range(starts):
        d = Daemon(f"ready-{i}")
        times.append(d.start())
        d.stop()
    again = d.start()  # the last one's state dir, now existing
    d.stop()
    med = statistics.median(times)
    row("start-up to READY=1, fresh state dir", "≤ 0.3 s",
        f"{fmt(med, 's')} (median of {starts}; min {fmt(min(times), 's')}, max {fmt(max(times), 's')})",
        limit="process exec + key generation + two SQLite opens")
    row("start-up to READY=1, existing state dir", "≤ 0.3 s", fmt(again, "s"), limit="process exec + two SQLite opens")


def bench_connected(restarts):
    owner, part = Daemon("owner"), Daemon("participant")
    owner.start()
    part.start()
    photo = os.path.join(WORK, "photo.jpg")
    with open(photo, "wb") as f:
        f.write(b"\xff\xd8\xff\xe0" + os.urandom(20000))
    pid = owner.cli("photo", "add", photo)["id"]
    share = owner.cli("share", "create", pid, "--title", "bench")
    part_id = part.cli("id")["peer_id"]
    owner_id = owner.cli("id")["peer_id"]
    owner.cli("share", "invite", share["share"], part_id)
    part.cli("accept", share["url"])

    def owner_connected():
        try:
            peers = part.request("peers", timeout=2)
        except (OSError, ValueError, RuntimeError):
            return False
        return any(p.get("peer_id") == owner_id and p.get("connected") for p in peers)

    wait_until("participant connected after accept", owner_connected, 30)
    times = []
    for _ in range(restarts):
        part.stop()
        part.start()
        wait_until("participant connected after restart", owner_connected, 30, interval=0.002)
        times.append(time.monotonic() - part.spawned)
    owner.stop()
    part.stop()
    med = statistics.median(times)
    return med, (f"{fmt(med, 's')} (median of {restarts}; min {fmt(min(times), 's')}, "
                 f"max {fmt(max(times), 's')})")


def bench_idle(photos, seconds, idle=True, gallery=True):
    """One daemon with `photos` photos (filled through the Store API): READY=1 with them,
    then (idle) its CPU and RSS over `seconds` with nothing to do, then (gallery) the web
    gallery's first screen. Returns (CPU %, RSS, peak RSS) when idle was measured."""
    d = Daemon("idle")
    fill = subprocess.run([f"{BIN}/peershare-bench", f"--fill-state={d.state}", f"--photos={photos}"],
                          capture_output=True, text=True, timeout=600)
    if fill.returncode != 0:
        raise RuntimeError(f"fill failed: {fill.stderr}")
    log(fill.stdout.strip())
    ready = d.start(timeout=60)
    st = d.request("status")
    log(f"idle daemon: {st.get('photos')} photos, READY=1 after {ready:.3f} s")
    result = None
    try:
        if idle:
            time.sleep(3)  # settling: let start-up work finish
            pid = d.proc.pid
            c0, t0 = proc_cpu_seconds(pid), time.monotonic()
            time.sleep(seconds)  # the idle period measured
            c1, t1 = proc_cpu_seconds(pid), time.monotonic()
            cpu = (c1 - c0) / (t1 - t0) * 100
            result = (cpu, proc_status(pid, "VmRSS"), proc_status(pid, "VmHWM"))
        if gallery:
            bench_gallery(d, photos)
    finally:
        d.stop()
    row(f"start-up to READY=1, existing state dir with {photos:,} photos", "≤ 0.3 s", fmt(ready, "s"))
    return result


class Gallery:
    """A browser's worth of HTTP to the daemon's web gallery: logged in through `ui`."""

    def __init__(self, daemon):
        url = daemon.request("ui")["url"]
        parsed = urllib.parse.urlsplit(url)
        self.host, self.port = parsed.hostname, parsed.port
        conn = http.client.HTTPConnection(self.host, self.port, timeout=30)
        conn.request("GET", parsed.path + "?" + parsed.query)
        resp = conn.getresponse()
        resp.read()
        if resp.status != 303:
            raise RuntimeError(f"gallery login refused: {resp.status}")
        self.cookie = resp.getheader("Set-Cookie").split(";")[0]
        page = self.get(conn, "/")
        self.csrf = re.search(rb'name="csrf-token" content="([0-9a-f]+)"', page).group(1).decode()
        conn.close()

    def connection(self):
        return http.client.HTTPConnection(self.host, self.port, timeout=30)

    def get(self, conn, path):
        conn.request("GET", path, headers={"Cookie": self.cookie})
        resp = conn.getresponse()
        body = resp.read()
        if resp.status != 200:
            raise RuntimeError(f"GET {path}: {resp.status}")
        return body

    def api(self, conn, command, args):
        conn.request("POST", "/api/" + command, body=json.dumps(args), headers={
            "Cookie": self.cookie, "X-PeerShare-CSRF": self.csrf, "Content-Type": "application/json",
            "Origin": f"http://{self.host}:{self.port}"})
        resp = conn.getresponse()
        body = json.loads(resp.read())
        if not body.get("ok"):
            raise RuntimeError(f"{command}: {body}")
        return body["result"]

    def first_screen(self, connections=6):
        """Seconds from nothing to the page, its assets, the first 100 photos and their 100
        thumbnails, over `connections` keep-alive connections as a browser opens them."""
        conns = [self.connection() for _ in range(connections)]
        t0 = time.monotonic()
        page = self.get(conns[0], "/")
        assets = re.findall(rb'(?:src|href)="(/assets/[^"]+)"', page)
        photos = self.api(conns[0], "photo.list", {"limit": 100})
        paths = [a.decode() for a in assets] + [f"/thumbnail/{p['id']}?v={p.get('thumbnail_size', 0)}" for p in photos]
        errors = []

        def fetch(index):
            try:
                for path in paths[index::connections]:
                    self.get(conns[index], path)
            except Exception as e:  # noqa: BLE001 - reported below
                errors.append(e)
        threads = [threading.Thread(target=fetch, args=(i,)) for i in range(connections)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        elapsed = time.monotonic() - t0
        for c in conns:
            c.close()
        if errors:
            raise errors[0]
        if len(photos) != 100:
            raise RuntimeError(f"the first page held {len(photos)} photos, not 100")
        return elapsed


def bench_gallery(d, photos, runs=5):
    """The gallery's first screen with `photos` in the library, and the daemon's memory with
    the gallery open (its live-update stream connected)."""
    gallery = Gallery(d)
    stream = gallery.connection()
    stream.request("GET", "/events", headers={"Cookie": gallery.cookie})
    events = stream.getresponse()
    if events.status != 200:
        raise RuntimeError(f"/events: {events.status}")
    times = sorted(gallery.first_screen() for _ in range(runs))
    rss, hwm = proc_status(d.proc.pid, "VmRSS"), proc_status(d.proc.pid, "VmHWM")
    stream.close()
    med = statistics.median(times)
    row(f"gallery: first screen (page, assets, 100 photos listed, 100 thumbnails) with {photos:,} photos",
        "≤ 200 ms", f"{fmt(med, 's')} (min {fmt(times[0], 's')}, max {fmt(times[-1], 's')}, {runs} runs)",
        limit="loopback HTTP: ~0.1 ms a request")
    row("gallery: daemon RSS with the gallery open (after those runs, live stream connected)", "—",
        f"{fmt(rss, 'MiB')} (peak {fmt(hwm, 'MiB')})")


# ---------------------------------------------------------------------------------------
# Syncthing
# ---------------------------------------------------------------------------------------

class Syncthing:
    def __init__(self, name):
        self.name = name
        self.home = os.path.join(WORK, "st-" + name, "home")
        self.folder = os.path.join(WORK, "st-" + name, "folder")
        os.makedirs(os.path.join(self.folder, ".stfolder"))
        out = subprocess.run(["syncthing", "generate", "--home", self.home, "--no-default-folder"],
                             capture_output=True, text=True, timeout=60)
        m = re.search(r"Device ID: (\S+)", out.stdout + out.stderr)
        self.id = m.group(1)
        self.gui_port, self.listen_port = free_port(), free_port()
        self.apikey = "bench-" + os.urandom(12).hex()
        self.proc = None

    def configure(self, other, paused):
        path = os.path.join(self.home, "config.xml")
        tree = ET.parse(path)
        root = tree.getroot()
        for f in root.findall("folder"):
            root.remove(f)
        dev = ET.SubElement(root, "device", id=other.id, name=other.name, compression="metadata",
                            introducer="false", skipIntroductionRemovals="false", introducedBy="")
        ET.SubElement(dev, "address").text = f"tcp://127.0.0.1:{other.listen_port}"
        ET.SubElement(dev, "paused").text = "false"
        ET.SubElement(dev, "autoAcceptFolders").text = "false"
        folder = ET.Element("folder", id="bench", label="bench", path=self.folder, type="sendreceive",
                            rescanIntervalS="86400", fsWatcherEnabled="false", fsWatcherDelayS="10",
                            ignorePerms="false", autoNormalize="true")
        ET.SubElement(folder, "filesystemType").text = "basic"
        ET.SubElement(folder, "device", id=self.id, introducedBy="")
        ET.SubElement(folder, "device", id=other.id, introducedBy="")
        ET.SubElement(folder, "paused").text = "true" if paused else "false"
        root.insert(0, folder)
        gui = root.find("gui")
        gui.find("address").text = f"127.0.0.1:{self.gui_port}"
        gui.find("apikey").text = self.apikey
        opts = root.find("options")
        settings = {"listenAddress": f"tcp://127.0.0.1:{self.listen_port}", "globalAnnounceEnabled": "false",
                    "localAnnounceEnabled": "false", "relaysEnabled": "false", "natEnabled": "false",
                    "urAccepted": "-1", "autoUpgradeIntervalH": "0", "crashReportingEnabled": "false",
                    "startBrowser": "false", "setLowPriority": "false", "reconnectionIntervalS": "1"}
        for key, value in settings.items():
            el = opts.find(key)
            if el is None:
                el = ET.SubElement(opts, key)
            el.text = value
        tree.write(path)

    def start(self):
        env = dict(os.environ, STNOUPGRADE="1", STNORESTART="1", STMONITORED="1")
        logf = open(os.path.join(WORK, f"st-{self.name}.log"), "ab")
        self.spawned = time.monotonic()
        self.proc = spawn(["syncthing", "serve", "--home", self.home, "--no-browser", "--no-restart",
                           "--no-default-folder"], env=env, stdout=logf, stderr=logf)
        logf.close()
        wait_until(f"Syncthing {self.name} REST", lambda: self.get_ok("/rest/system/ping"), 60, 0.02)

    def rest(self, method, path, body=None, timeout=5):
        req = urllib.request.Request(f"http://127.0.0.1:{self.gui_port}{path}", method=method,
                                     headers={"X-API-Key": self.apikey, "Content-Type": "application/json"},
                                     data=json.dumps(body).encode() if body is not None else None)
        with urllib.request.urlopen(req, timeout=timeout) as r:
            data = r.read()
        return json.loads(data) if data.strip() else None

    def get_ok(self, path):
        try:
            return self.rest("GET", path, timeout=1)
        except OSError:
            return None

    def connected_to(self, other):
        c = self.get_ok("/rest/system/connections")
        return bool(c and c.get("connections", {}).get(other.id, {}).get("connected"))


def files_complete(folder, names, size):
    for n in names:
        try:
            if os.stat(os.path.join(folder, n)).st_size != size:
                return False
        except FileNotFoundError:
            return False
    return True


def make_files(count, size):
    """The file set both systems sync: JPEG start marker + random bytes, `size` bytes each."""
    folder = os.path.join(WORK, "files")
    os.makedirs(folder)
    names = [f"photo-{i:04d}.jpg" for i in range(count)]
    for n in names:
        with open(os.path.join(folder, n), "wb") as f:
            f.write(b"\xff\xd8\xff\xe0" + os.urandom(size - 4))
    return folder, names


def bench_daemon_sync(folder, names, size, run=0):
    """Real daemons: owner adds the files into a share; participant accepts; time from the
    accept request until the participant's `sync` with wait returns (its engine is in sync
    with the owner, photo data included: one request instead of polling, which would cost
    the participant CPU). Then, untimed, its photo list must show every photo arrived."""
    owner, part = Daemon(f"sync-owner-{run}"), Daemon(f"sync-participant-{run}")  # fresh state
    owner.start()
    part.start()
    # Each photo comes with its thumbnail (one 2 KB file for all), as a library's photos have
    # theirs by the time they are shared: otherwise the owner's thumbnailer would run over
    # the 1,000 files during the timed sync (Syncthing's scan is done before its clock too).
    thumbnail = os.path.join(WORK, "thumbnail.jpg")
    if not os.path.exists(thumbnail):
        with open(thumbnail, "wb") as f:
            f.write(b"\xff\xd8\xff\xe0" + os.urandom(2044))
    seed = owner.request("photo.add", {"file": os.path.join(folder, names[0]), "thumbnail": thumbnail})["id"]
    share = owner.request("share.create", {"photo": seed, "title": "bench"})
    for n in names[1:]:
        owner.request("photo.add", {"file": os.path.join(folder, n), "share": share["share"], "thumbnail": thumbnail},
                      timeout=30)
    part_id = part.request("id")["peer_id"]
    owner.request("share.invite", {"share": share["share"], "peer": part_id})

    def complete():
        try:
            photos = part.request("photo.list", {"share": share["share"]}, timeout=5)
        except (OSError, ValueError, RuntimeError):
            return False
        return len(photos) == len(names) and all(not p.get("pending") and p.get("size") == size for p in photos)

    t0 = time.monotonic()
    part.request("accept", {"url": share["url"]}, timeout=30)
    part.request("sync", {"wait": True, "timeout": 120}, timeout=130)
    seconds = time.monotonic() - t0
    if not complete():
        raise RuntimeError("the participant said it was in sync without every photo")
    owner.stop()
    part.stop()
    return seconds


def bench_syncthing(folder, names, size, changes):
    count = len(names)
    a, b = Syncthing("A"), Syncthing("B")
    a.configure(b, paused=False)
    b.configure(a, paused=True)
    for n in names:
        os.link(os.path.join(folder, n), os.path.join(a.folder, n))
    a.start()
    wait_until("Syncthing A scanned", lambda: (s := a.get_ok("/rest/db/status?folder=bench")) and
               s.get("state") == "idle" and s.get("localFiles") == count, 120, 0.05)
    b.start()
    wait_until("Syncthing B connected", lambda: b.connected_to(a) and a.connected_to(b), 60, 0.005)
    connected = time.monotonic() - b.spawned
    time.sleep(1)  # let index exchange for the (paused) folder settle
    # (a) initial sync: B un-pauses the folder (the "accept"), until everything is on B's disk
    t0 = time.monotonic()
    b.rest("PATCH", "/rest/config/folders/bench", {"paused": False})
    wait_until("Syncthing B has the files", lambda: files_complete(b.folder, names, size), 120, 0.005)
    files_at = time.monotonic() - t0

    def b_done():
        s = b.get_ok("/rest/db/status?folder=bench")
        c = b.get_ok("/rest/db/completion?folder=bench")
        return s and c and s.get("needFiles") == 0 and c.get("completion") == 100 and s.get("inSyncFiles", 0) >= count

    wait_until("Syncthing B 100 % complete", b_done, 60, 0.005)
    initial = time.monotonic() - t0
    # (b) one new small file: REST-triggered rescan on A until the file is on B
    lat = []
    for i in range(changes):
        name = f"change-{i:02d}.jpg"
        data = os.urandom(2000)
        with open(os.path.join(a.folder, name), "wb") as f:
            f.write(data)
        t0 = time.monotonic()
        a.rest("POST", "/rest/db/scan?folder=bench")
        wait_until("Syncthing change on B", lambda: files_complete(b.folder, [name], len(data)), 30, 0.001)
        lat.append(time.monotonic() - t0)
        time.sleep(0.2)
    rss = (proc_status(a.proc.pid, "VmRSS"), proc_status(b.proc.pid, "VmRSS"))
    stop(a.proc)
    stop(b.proc)
    return {"initial": initial, "files_at": files_at, "change": statistics.median(lat),
            "change_max": max(lat), "connected": connected, "rss": rss}


# ---------------------------------------------------------------------------------------
# Joining a big zone; hostile connections
# ---------------------------------------------------------------------------------------

class Sampler:
    """Reads /proc/PID/status of each daemon every `interval` s on a thread of its own, and
    keeps each one's highest VmRSS and Threads; `stop` ends it (bounded) and returns them."""

    def __init__(self, daemons, interval=0.02):
        self.pids = {d.proc.pid: d for d in daemons}
        self.pid_of = {d: d.proc.pid for d in daemons}  # the daemon may be stopped before it is asked
        self.interval = interval
        self.peak_rss = {pid: 0.0 for pid in self.pids}
        self.peak_threads = {pid: 0 for pid in self.pids}
        self.samples = 0
        self.gone = set()
        self.done = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def read(self):
        for pid in self.pids:
            try:
                with open(f"/proc/{pid}/status") as f:
                    for line in f:
                        if line.startswith("VmRSS:"):
                            self.peak_rss[pid] = max(self.peak_rss[pid], int(line.split()[1]) / 1024)
                        elif line.startswith("Threads:"):
                            self.peak_threads[pid] = max(self.peak_threads[pid], int(line.split()[1]))
            except (OSError, ValueError):
                self.gone.add(pid)
        self.samples += 1

    def run(self):
        while not self.done.is_set():
            self.read()
            self.done.wait(self.interval)

    def stop(self):
        self.done.set()
        self.thread.join(5)
        self.read()
        return self

    def rss(self, daemon):
        return self.peak_rss[self.pid_of[daemon]]

    def threads(self, daemon):
        return self.peak_threads[self.pid_of[daemon]]


def reset_peak_rss(daemon):
    """Resets the daemon's VmHWM to its current RSS (clear_refs 5); False when refused."""
    try:
        with open(f"/proc/{daemon.proc.pid}/clear_refs", "w") as f:
            f.write("5")
        return True
    except OSError:
        return False


def raw_insert_rate():
    """The raw SQLite insert rate of peershare-bench's table (rows/s) and where it is from."""
    rate = bench_figure("raw SQLite insert")
    if rate:
        return rate, "raw-insert figure of the table above"
    return 680_000, "SPEC §11's ~680,000 rows/s (the raw-insert figure was not run)"


def layout_limit():
    """peershare-bench's floor for this join: SQLite alone writing its rows (100,000 photos,
    ratings, links, 1,000 tags) into the store's schema, every index and stamp included."""
    seconds = bench_figure("SQLite alone: a join's rows into the store's schema (every")
    if seconds is None:
        return "not measured (the raw figures were not run)"
    return f"{seconds:.2f} s (layout figure of the table above, transactions as large as the receiver applies together)"


def bench_join():
    """The join figure once per value of --join-set-photos (default 1,1000): the owner's zone
    in signed sets of one photo each (as photo.add makes them: what a zone built photo by
    photo holds) and of 1,000 photos each (as a batch import would make them: mostly the
    delta's cost). A variant that fails is a row saying so."""
    for value in ARGS.get("--join-set-photos", "1,1000").split(","):
        set_photos = int(value)
        how = ("one signed set per photo, as photo.add makes them" if set_photos == 1 else
               f"the owner's changes in signed sets of {set_photos:,} photos, as a batch import makes them")
        try:
            join_variant(set_photos, how)
        except Exception as e:
            log(f"join ({how}) failed: {e!r}")
            row(f"joining a zone of photos with tags and ratings ({how})", "≤ 3 s", f"failed: {e}; load {loadavg()}")


def join_variant(set_photos, how):
    """Participants joining a zone of --join-photos photos (100,000), each with a rating and
    one or two of --join-tags tag names (1,000), filled by `peershare-bench --fill-share`
    into a share the owner daemon created, in signed sets of `set_photos` photos: --join-runs
    (3) participants, invited before the fill, join one after the other (each stopped before
    the next starts), so the figure is a median with its range. Timed, each: from the
    participant's `accept` until its `sync` with `wait` returns; both daemons' RSS sampled
    every 20 ms throughout; afterwards (untimed) the participant's photo.list must show every
    photo with its tags and rating."""
    photos = int(ARGS.get("--join-photos", "100000"))
    tags = int(ARGS.get("--join-tags", "1000"))
    runs = int(ARGS.get("--join-runs", "3"))
    figure = f"joining a zone of {photos:,} photos with tags and ratings (metadata; {how}), after accept"
    owner = Daemon(f"join-owner-{set_photos}")
    parts = [Daemon(f"join-participant-{set_photos}-{i + 1}") for i in range(runs)]
    try:
        owner.start()
        seed_file = os.path.join(owner.dir, "seed.jpg")
        with open(seed_file, "wb") as f:
            f.write(b"\xff\xd8\xff\xe0" + os.urandom(1000))
        seed = owner.request("photo.add", {"file": seed_file})["id"]
        zone = owner.request("share.create", {"photo": seed, "title": "join"})["share"]
        for part in parts:
            part.start()
            owner.request("share.invite", {"share": zone, "peer": part.request("id")["peer_id"]})
            part.stop()
        owner.stop()
        fill = subprocess.run([f"{BIN}/peershare-bench", f"--fill-share={owner.state}", f"--zone={zone}",
                               f"--photos={photos}", f"--tags={tags}", f"--set-photos={set_photos}"],
                              capture_output=True, text=True, timeout=900)
        if fill.returncode != 0:
            raise RuntimeError(f"fill failed: {fill.stderr.strip()[-2000:]}")
        log(fill.stdout.strip())
        m = re.search(r"(\d+) tag links, (\d+) tags, (\d+) field changes, (\d+) signed sets", fill.stdout)
        links, tag_count, changes, sets = (int(g) for g in m.groups())
        ready = owner.start(timeout=120)
        url = next(s["url"] for s in owner.request("share.list") if s["share"] == zone)
        log(f"join: owner READY=1 after {ready:.2f} s")
        results = []
        for i, part in enumerate(parts):
            part.start()
            try:
                results.append(one_join(owner, part, url, zone, set_photos, photos, links, tag_count))
            finally:
                part.stop()
            r = results[-1]
            log(f"join {i + 1} of {runs}: {r['seconds']:.2f} s; joiner CPU user {r['split'][1][0]:.2f} s, "
                f"system {r['split'][1][1]:.2f} s; owner {r['cpu'][0]:.2f} s")
    finally:
        owner.stop()
        for part in parts:
            part.stop()
    rate, source = raw_insert_rate()
    rows = photos * 2 + links + tag_count
    times = sorted(r["seconds"] for r in results)
    med = statistics.median(times)
    each = "; ".join(
        f"{fmt(r['seconds'], 's')} (CPU owner {r['cpu'][0]:.2f} s, joiner {r['cpu'][1]:.2f} s "
        f"[user {r['split'][1][0]:.2f}, system {r['split'][1][1]:.2f}]; "
        f"{r['bytes_in'] / 1e6:.0f} MB received; load {r['load']} before)" for r in results)
    row(figure, "≤ 3 s",
        f"{fmt(med, 's')} (median of {len(times)}; min {fmt(times[0], 's')}, max {fmt(times[-1], 's')}); "
        f"{changes:,} field changes in {sets:,} signed sets of the owner; each join, in order: {each}; "
        f"accept answered after {fmt(max(r['accepted'] for r in results), 's')} at most",
        limit=f"SQLite alone writing these rows into the store's schema: {layout_limit()}; into one table with "
              f"one index, the {rows:,} rows ({photos:,} photos, {photos:,} ratings, {links:,} links, "
              f"{tag_count:,} tags) at {rate:,.0f} rows/s ({source}): {rows / rate:.2f} s")
    def highest(key, side):
        return fmt(max(r[key][side] for r in results), "MiB")
    peak = ("highest over the {} joins: peak VmRSS sampled every 20 ms ({} samples): owner {}, joiner {}; VmHWM{}: "
            "owner {}, joiner {}; before accept: owner {}, joiner {}").format(
        len(results), sum(r["samples"] for r in results), highest("sampled", 0), highest("sampled", 1),
        " (reset before accept)" if all(r["reset"] for r in results) else " (since start: reset refused)",
        highest("hwm", 0), highest("hwm", 1), highest("rss_before", 0), highest("rss_before", 1))
    row(f"{figure}: RSS of owner and joiner throughout", "≤ 64 MiB each", peak,
        limit="the delta's byte-bounded pages and window, SQLite page caches")


def one_join(owner, part, url, zone, set_photos, photos, links, tag_count):
    """One participant's timed join of the filled zone, then the untimed check of what it
    holds; returns its figures."""
    timeout = int(ARGS.get("--join-timeout", "300"))
    time.sleep(3)  # settling: the daemons' start-up work
    rss_before = [proc_status(d.proc.pid, "VmRSS") for d in (owner, part)]
    load = loadavg()
    reset = reset_peak_rss(owner) and reset_peak_rss(part)
    cpu0 = [proc_cpu_times(d.proc.pid) for d in (owner, part)]
    sampler = Sampler([owner, part])
    # --perf-join=FILE: `perf record` of both daemons over the timed join, for profiling.
    perf = None
    if "--perf-join" in ARGS:
        perf = subprocess.Popen(["perf", "record", "-F", "299", "--call-graph", "dwarf,16384", "-o",
                                 f"{ARGS['--perf-join']}.{set_photos}.{os.path.basename(part.dir)}",
                                 "-p", f"{owner.proc.pid},{part.proc.pid}"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(1)  # settling: perf attaching
    try:
        t0 = time.monotonic()
        part.request("accept", {"url": url}, timeout=60)
        accepted = time.monotonic() - t0
        synced = part.request("sync", {"wait": True, "timeout": timeout}, timeout=timeout + 10)
        seconds = time.monotonic() - t0
    finally:
        sampler.stop()
        if perf:
            perf.send_signal(signal.SIGINT)
            perf.wait(timeout=120)
    split = [tuple(b - a for a, b in zip(c, proc_cpu_times(d.proc.pid))) for d, c in zip((owner, part), cpu0)]
    cpu = [sum(s) for s in split]
    hwm = [proc_status(d.proc.pid, "VmHWM") for d in (owner, part)]
    if synced.get("unreachable"):
        raise RuntimeError(f"the participant's sync answered with the owner unreachable: {synced}")
    bytes_in = sum(p.get("bytes_in", 0) for p in part.request("peers"))
    # Untimed: every photo with its tags and rating, a page at a time (bounded memory).
    listed, rated, tagged, after = 0, 0, 0, None
    while True:
        page = part.request("photo.list", {"share": zone, "limit": 1000, **({"after": after} if after else {})},
                            timeout=60)
        for p in page:
            listed += 1
            rated += len(p.get("ratings", [])) == 1
            tagged += len(p.get("tags", []))
        if len(page) < 1000:
            break
        after = page[-1]["id"]
    tag_list = [t for t in part.request("tag.list", {"share": zone}) if t.get("photo_count")]
    log(f"join: participant lists {listed} photos, {rated} with one rating, {tagged} tag links, "
        f"{len(tag_list)} tags in use")
    if listed != photos + 1 or rated != photos or tagged != links or len(tag_list) != tag_count:
        raise RuntimeError(f"the participant said it was in sync with {listed} photos ({rated} rated, {tagged} "
                           f"tag links, {len(tag_list)} tags) of {photos + 1} ({links} links, {tag_count} tags)")
    return {"seconds": seconds, "accepted": accepted, "cpu": cpu, "split": split, "hwm": hwm, "bytes_in": bytes_in,
            "load": load, "reset": reset, "rss_before": rss_before,
            "sampled": (sampler.rss(owner), sampler.rss(part)), "samples": sampler.samples}


def percentile(values, p):
    """Nearest rank: with fewer than 100 values, p99 is the maximum."""
    v = sorted(values)
    return v[max(0, math.ceil(p / 100 * len(v)) - 1)]


def tag_latency(writer, watch, photo, name, timeout=10):
    """Seconds from just before `tag.add` is sent to the writer until the tag's link is in
    the watch's history events (the watch is read meanwhile, so no polling)."""
    _, arrivals = one_round(writer, [watch], photo, name, timeout)
    if arrivals[0] is None:
        raise TimeoutError(f"tag {name} not seen at the other peer within {timeout} s")
    return arrivals[0]


def latencies(writer, watch, photo, phase, samples, gap):
    out = []
    for i in range(samples):
        time.sleep(gap)  # between samples: the previous change's acknowledgements settle
        out.append(tag_latency(writer, watch, photo, f"hostile-{phase}-{i:03d}"))
    return out


def client_hello_prefix():
    """The first bytes of a TLS 1.3 ClientHello whose record announces 512 bytes: a peer
    that starts a handshake and never finishes it."""
    body = b"\x03\x03" + os.urandom(32) + b"\x20" + os.urandom(32) + b"\x00\x02\x13\x01\x01\x00"
    handshake = b"\x01" + (508).to_bytes(3, "big") + body
    return b"\x16\x03\x01" + (512).to_bytes(2, "big") + handshake


class Hostile:
    """`count` TCP connections to HOST:PORT held open on a thread of their own: in turn, one
    sends nothing, one the first 100 bytes of a TLS ClientHello, one 64 garbage bytes, and
    then nothing more. One the daemon closes is opened again `reopen` s later (an attacker
    keeps its connections up), so that `count` stay open or on their way; every close is
    counted with how long the connection lived."""

    KINDS = ("silent", "partial-hello", "garbage")

    def __init__(self, host, port, count, reopen=1.0):
        self.addr = (host, port)
        self.count, self.reopen = count, reopen
        self.sel = selectors.DefaultSelector()
        self.open = {}  # socket -> (kind, connected at)
        self.connecting = {}  # socket -> (kind, first burst?)
        self.due = []  # (time, kind) of connections to open again
        self.lifetimes = {k: [] for k in self.KINDS}  # seconds each lived before the daemon closed it
        self.connects = 0
        self.failed_connects = 0
        self.max_open = 0
        self.first_burst = count  # connections of the first burst not yet connected or failed
        self.done = threading.Event()
        self.error = None
        for i in range(count):
            self.connect(self.KINDS[i % 3], first=True)
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def connect(self, kind, first=False):
        self.connects += 1
        s = socket.socket()
        s.setblocking(False)
        if s.connect_ex(self.addr) not in (0, 115):  # 115: EINPROGRESS
            self.failed(s, kind, first)
            return
        self.connecting[s] = (kind, first)
        self.sel.register(s, selectors.EVENT_WRITE)

    def failed(self, s, kind, first):
        s.close()
        self.failed_connects += 1
        self.first_burst -= first
        self.due.append((time.monotonic() + self.reopen, kind))

    def connected(self, s):
        kind, first = self.connecting.pop(s)
        self.sel.unregister(s)
        if s.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR):
            self.failed(s, kind, first)
            return
        try:
            if kind == "partial-hello":
                s.send(client_hello_prefix()[:100])
            elif kind == "garbage":
                s.send(os.urandom(64))
        except OSError:
            pass
        self.first_burst -= first
        self.open[s] = (kind, time.monotonic())
        self.sel.register(s, selectors.EVENT_READ)
        self.max_open = max(self.max_open, len(self.open))

    def readable(self, s):
        try:
            data = s.recv(65536)
        except OSError:
            data = b""
        if data:
            return  # a TLS alert or the like: read and ignored; the close comes next
        kind, since = self.open.pop(s)
        self.sel.unregister(s)
        s.close()
        self.lifetimes[kind].append(time.monotonic() - since)
        self.due.append((time.monotonic() + self.reopen, kind))

    def run(self):
        try:
            while not self.done.is_set():
                now = time.monotonic()
                again = [k for t, k in self.due if t <= now]
                self.due = [(t, k) for t, k in self.due if t > now]
                for kind in again:
                    self.connect(kind)
                for key, _ in self.sel.select(0.05):
                    if key.fileobj in self.connecting:
                        self.connected(key.fileobj)
                    elif key.fileobj in self.open:
                        self.readable(key.fileobj)
        except Exception as e:  # reported by stop()
            self.error = e

    def wait_first_burst(self, timeout):
        """Waits (bounded) until every connection of the first burst is connected or failed;
        returns how many were open then."""
        deadline = time.monotonic() + timeout
        while self.first_burst > 0 and time.monotonic() < deadline and self.thread.is_alive():
            time.sleep(0.01)
        return len(self.open)

    def stop(self):
        self.done.set()
        self.thread.join(10)
        for s in list(self.open) + list(self.connecting):
            s.close()
        self.sel.close()
        if self.error:
            raise self.error
        return self


def owner_connected(part, owner_id):
    try:
        return any(p.get("peer_id") == owner_id and p.get("connected") for p in part.request("peers", timeout=5))
    except (OSError, ValueError, RuntimeError):
        return False


def bench_hostile():
    """Two legitimate daemons sharing a zone; the tag latency owner → participant (100
    samples, so that the p99 is a percentile, not the largest sample; from the participant's
    `watch` stream) (a) before, (b) while --hostile-connections
    (1,000) TCP connections from this script are held open to the owner's listen port, and
    (c) after they are closed; the owner's threads and RSS before, during (sampled every
    20 ms) and after (once its threads are back, bounded); and a participant restarted
    during (b): how long it takes to be connected again."""
    count = int(ARGS.get("--hostile-connections", "1000"))
    samples = int(ARGS.get("--hostile-samples", "100"))
    gap = float(ARGS.get("--hostile-gap", "0.1"))
    settle = float(ARGS.get("--hostile-settle", "3"))
    # The attack lasts at least this long, longer than the daemon's 10 s handshake timeout,
    # with the samples of (b) spread over it.
    hold = float(ARGS.get("--hostile-hold", "15"))
    figure = f"{count:,} hostile inbound connections held open at the owner"
    owner, part = Daemon("hostile-owner"), Daemon("hostile-participant")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    watch = attack = None
    try:
        owner.start()
        part.start()
        photo_file = os.path.join(owner.dir, "photo.jpg")
        with open(photo_file, "wb") as f:
            f.write(b"\xff\xd8\xff\xe0" + os.urandom(20000))
        photo = owner.request("photo.add", {"file": photo_file})["id"]
        share = owner.request("share.create", {"photo": photo, "title": "hostile"})
        owner_id = owner.request("id")["peer_id"]
        owner.request("share.invite", {"share": share["share"], "peer": part.request("id")["peer_id"]})
        part.request("accept", {"url": share["url"]}, timeout=30)
        part.request("sync", {"wait": True, "timeout": 60}, timeout=70)
        wait_until("participant connected", lambda: owner_connected(part, owner_id), 30, 0.05)
        host, port = owner.request("status")["listen"].rsplit(":", 1)
        # The reference for the restart during the attack: one without it.
        part.stop()
        t_restart = time.monotonic()
        part.start()
        wait_until("participant connected after a restart", lambda: owner_connected(part, owner_id), 30, 0.05)
        base_connect = time.monotonic() - t_restart
        watch = Watch(part, share["share"])
        pid = owner.proc.pid
        nofile = next((l.split()[3] for l in open(f"/proc/{pid}/limits") if l.startswith("Max open files")), "?")
        load = [loadavg()]
        # (a) before
        before = latencies(owner, watch, photo, "before", samples, gap)
        time.sleep(settle)  # settling before the owner's baseline is read
        base_threads, base_rss = proc_status_int(pid, "Threads"), proc_status(pid, "VmRSS")
        c0, t0 = proc_cpu_seconds(pid), time.monotonic()
        time.sleep(settle)  # the owner's idle CPU before the attack, over this period
        base_cpu = (proc_cpu_seconds(pid) - c0) / (time.monotonic() - t0) * 100
        log(f"hostile: before: p50 {percentile(before, 50) * 1000:.1f} ms; owner {base_threads} threads, "
            f"{base_rss:.1f} MiB, {base_cpu:.2f} % CPU; its open-files limit {nofile}; load {loadavg()}")
        # (b) during: this script's own limit raised (the daemons keep theirs)
        need = count + 256
        if soft < need:
            resource.setrlimit(resource.RLIMIT_NOFILE, (min(need, hard), hard))
        sampler = Sampler([owner])
        c_attack, t_attack = proc_cpu_seconds(pid), time.monotonic()
        attack = Hostile(host, int(port), count)
        opened = attack.wait_first_burst(float(ARGS.get("--hostile-open-timeout", "10")))
        log(f"hostile: {opened} of {count} connections open at once after {time.monotonic() - t_attack:.1f} s "
            f"(most open so far {attack.max_open}); owner {proc_status_int(pid, 'Threads')} threads")
        load.append(loadavg())
        spread = max(gap, (hold - (time.monotonic() - t_attack)) / samples)
        during = latencies(owner, watch, photo, "during", samples, spread)
        held = time.monotonic() - t_attack
        open_during = len(attack.open)
        # A legitimate peer connecting while the attack goes on: the participant restarted
        # (it dials the owner; the owner does not know its new port).
        watch.close()
        part.stop()
        t_restart = time.monotonic()
        part.start()
        reconnect_timeout = float(ARGS.get("--hostile-reconnect-timeout", "30"))
        try:
            wait_until("participant connected during the attack", lambda: owner_connected(part, owner_id),
                       reconnect_timeout, 0.05)
            reconnected, why = time.monotonic() - t_restart, None
        except TimeoutError:
            reconnected = None
            why = next((p.get("last_error") for p in part.request("peers") if p.get("peer_id") == owner_id), None)
            log(f"hostile: the restarted participant was not connected within {reconnect_timeout:.0f} s of the "
                f"attack: {why}")
        watch = Watch(part, share["share"])
        attack_seconds = time.monotonic() - t_attack
        attack_cpu = (proc_cpu_seconds(pid) - c_attack) / attack_seconds * 100
        attack.stop()
        t_end = time.monotonic()
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
        sampler.stop()
        if owner.proc.poll() is not None:
            raise RuntimeError(f"the owner exited with {owner.proc.returncode} during the attack (log: {owner.dir})")
        # (c) after: the participant connected again (bounded: its dials back off to ~30 s),
        # the owner's threads back (bounded), then its idle CPU.
        after_timeout = float(ARGS.get("--hostile-after-timeout", "60"))
        if reconnected is None:
            wait_until("participant connected after the attack", lambda: owner_connected(part, owner_id),
                       after_timeout, 0.05)
        reconnected_after = time.monotonic() - t_end if reconnected is None else None
        t_after = time.monotonic()
        while proc_status_int(pid, "Threads") > base_threads and time.monotonic() - t_after < after_timeout:
            time.sleep(0.1)
        back = time.monotonic() - t_end
        after_threads, after_rss = proc_status_int(pid, "Threads"), proc_status(pid, "VmRSS")
        c0, t0 = proc_cpu_seconds(pid), time.monotonic()
        time.sleep(settle)  # the owner's idle CPU after the attack, over this period
        after_cpu = (proc_cpu_seconds(pid) - c0) / (time.monotonic() - t0) * 100
        after = latencies(owner, watch, photo, "after", samples, gap)
        load.append(loadavg())
    finally:
        if attack:
            attack.done.set()
        if watch:
            watch.close()
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
        owner.stop()
        part.stop()

    def lat(v):
        return (f"p50 {percentile(v, 50) * 1000:.1f} ms, p99{' = max' if len(v) < 100 else ''} "
                f"{percentile(v, 99) * 1000:.1f} ms")
    changed = percentile(during, 50) > 2 * percentile(before, 50) + 0.002 or \
        percentile(during, 99) > 2 * percentile(before, 99) + 0.005
    row(f"{figure}: tag latency owner → participant ({samples} samples each)",
        "unchanged (p50 ≤ 5 ms, p99 ≤ 25 ms)",
        f"before {lat(before)}; during {lat(during)}; after {lat(after)}: "
        f"{'CHANGED' if changed else 'unchanged'} during (changed: its p50 more than twice before + 2 ms, or its "
        f"p99 more than twice before + 5 ms); "
        f"load {load[0]} / {load[1]} / {load[2]}", limit="loopback + one SQLite commit, ~1–2 ms")

    def closes(kind):
        lives = attack.lifetimes[kind]
        late = sorted(v for v in lives if v >= 1)
        text = f"{kind} {len(lives) - len(late):,} within 1 s"
        if late:
            text += f", {len(late):,} later (median {statistics.median(late):.1f} s, max {late[-1]:.1f} s)"
        return text
    kinds = "; ".join(closes(k) for k in Hostile.KINDS)
    row(f"{figure}: the owner's threads and RSS", "bounded (≤ 64 MiB), back to idle after",
        f"before {base_threads} threads, {fmt(base_rss, 'MiB')}, {base_cpu:.1f} % CPU; during (max, sampled every "
        f"20 ms) {sampler.threads(owner)} threads, {fmt(sampler.rss(owner), 'MiB')}, {attack_cpu:.1f} % CPU over "
        f"{attack_seconds:.0f} s; after {after_threads} threads (after {back:.1f} s, ≤ {after_timeout:.0f} s), "
        f"{fmt(after_rss, 'MiB')}, {after_cpu:.1f} % CPU. Attack (a third each silent, a partial ClientHello, 64 "
        f"garbage bytes; samples (b) over its first {held:.0f} s): {opened} of {count} open after the first burst, "
        f"{open_during} at the end of the samples, {attack.max_open} at most; closed by the owner: {kinds}; each "
        f"opened again {attack.reopen:.0f} s later ({attack.connects:,} connects in all, {attack.failed_connects:,} "
        f"failed); owner's open-files limit {nofile}",
        limit="max_incoming_handshakes (32) handshake threads, 10 s handshake timeout")
    if reconnected is not None:
        text = f"connected {fmt(reconnected, 's')} after its start"
    else:
        text = (f"not connected within {reconnect_timeout:.0f} s of its start while the attack went on (its last "
                f"dial: {why}); connected {fmt(reconnected_after, 's')} after the attack ended")
    row(f"{figure}: a participant restarted during the attack, connecting to the owner", "—",
        f"{text}; it connects {fmt(base_connect, 's')} after its start without the attack",
        limit="READY=1 + one TLS 1.3 handshake (~1 ms)")


def proc_status_int(pid, key):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith(key + ":"):
            return int(line.split()[1])
    return None


# ---------------------------------------------------------------------------------------

def bench_figure(prefix):
    """The median of a peershare-bench figure from its markdown table."""
    try:
        for line in open(ARGS["--bench-table"]):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if cells and cells[0].startswith(prefix):
                return float(cells[1].split()[0])
    except (KeyError, OSError, ValueError, IndexError):
        pass
    return None


def journal_less_ext4(path):
    """Whether `path` is on ext4 without a journal (no jbd2 entry for its device)."""
    try:
        out = subprocess.run(["findmnt", "-no", "SOURCE,FSTYPE", "-T", path], capture_output=True, text=True,
                             timeout=10).stdout.split()
    except (OSError, subprocess.SubprocessError):
        return False
    if len(out) != 2 or out[1] != "ext4":
        return False
    device = os.path.basename(out[0])
    try:
        return not any(name.startswith(device + "-") for name in os.listdir("/proc/fs/jbd2"))
    except OSError:
        return True


def settle_filesystem():
    """On ext4 without a journal, allocating an inode skips every inode freed in the last 60 s
    (360 s while its inode-table block is still dirty; ext4's `recently_deleted`, checked only
    without a journal), reading the inode table for each: after a clean-up of thousands of
    files (peershare-bench's scratch directories, just before), creating a file costs up to
    ~0.8 ms instead of ~20 µs, and the initial-sync figures measure that rather than either
    program. So on such a filesystem (this VM's root) the file-creating figures, Syncthing's
    and the daemons' alike, start once that window has passed (dirty blocks are written back
    within ~35 s)."""
    if not journal_less_ext4(WORK):
        return
    seconds = float(ARGS.get("--settle", "70"))
    log(f"{WORK} is on ext4 without a journal: waiting {seconds:.0f} s for inodes freed by earlier clean-ups "
        "to age out of ext4's recently-deleted window before the file-creating figures")
    time.sleep(seconds)


def main():
    t_start = time.monotonic()
    log(f"figures: {', '.join(f for f in FIGURES if wanted(f))}; load {loadavg()}")
    st = None
    size = 100_000
    if wanted("syncthing") or wanted("daemon-sync"):
        folder, names = make_files(1000, size)
        settle_filesystem()
    if wanted("syncthing"):
        if shutil.which("syncthing") is None:
            log("syncthing is not installed; skipping the comparison")
        else:
            try:
                st = bench_syncthing(folder, names, size, 10)
            except Exception as e:  # report and carry on with the daemon figures
                log(f"Syncthing comparison failed: {e!r}")
    daemon_sync = None
    if wanted("daemon-sync"):
        try:
            # Median of fresh daemon pairs: a single run swings with the machine's page cache.
            runs = [bench_daemon_sync(folder, names, size, n) for n in range(int(ARGS.get("--sync-runs", "3")))]
            daemon_sync = statistics.median(runs)
            log("daemon initial sync runs: " + ", ".join(f"{r:.3f} s" for r in runs))
        except Exception as e:
            log(f"daemon initial sync failed: {e!r}")
    engine_sync = bench_figure("initial sync, 1,000")
    limit = "100 MB over one TLS 1.3 loopback stream at ~1 GB/s: ~0.1 s"
    initial = []
    if wanted("daemon-sync") or st:
        initial.append(("peershared daemons, same files as Syncthing (median of 3)", daemon_sync))
    if engine_sync is not None:
        initial.append(("two in-process engines, peershare-bench (table above)", engine_sync))
    for label, ps in initial:
        ratio = versus(ps, st and st["initial"])
        row(f"initial sync, 1,000 × 100 KB, after accept: {label}", "≤ 0.3 s and ≥ 4× faster than Syncthing",
            fmt(ps, "s"), f"{fmt(st['initial'], 's')} (files on disk after {fmt(st['files_at'], 's')})" if st else "—",
            ratio, limit)
    if st:
        tag = bench_figure("tag visible at the other peer, p50")
        row("one small change at the other peer (PeerShare: tag p50, pushed at commit; Syncthing: new 2 KB file "
            "after POST /rest/db/scan)", "p50 ≤ 5 ms, p99 ≤ 25 ms", fmt(tag, "ms") if tag else "—",
            f"{fmt(st['change'] * 1000, 'ms')} (median of 10; max {fmt(st['change_max'] * 1000, 'ms')})",
            versus(tag, st["change"] * 1000),
            "loopback round trip + one fsync: well under 1 ms")
    if "--skip-daemon" in ARGS:
        print("\n".join(" | ".join(r) for r in ROWS))
        return
    if wanted("ready"):
        bench_ready(int(ARGS.get("--starts", "10")))
    if wanted("connected"):
        med, text = bench_connected(int(ARGS.get("--restarts", "5")))
        row("start-up to connected with its peers (participant restarted, owner running)", "≤ 0.5 s", text,
            fmt(st["connected"], "s") if st else "—",
            versus(med, st and st["connected"]), "READY=1 + one TLS 1.3 handshake (~1 ms)")
    if wanted("idle") or wanted("gallery"):
        photos = int(ARGS.get("--photos", "100000"))
        idle = bench_idle(photos, float(ARGS.get("--idle-seconds", "30")), idle=wanted("idle"),
                          gallery=wanted("gallery"))
        if idle:
            cpu, rss, hwm = idle
            row(f"daemon idle with {photos:,} photos: CPU", "≤ 1 %", fmt(cpu, "%"), limit="0 % (nothing to do)")
            row(f"daemon idle with {photos:,} photos: RSS", "≤ 32 MiB", f"{fmt(rss, 'MiB')} (peak {fmt(hwm, 'MiB')})",
                f"{fmt(st['rss'][0], 'MiB')} + {fmt(st['rss'][1], 'MiB')} (A + B after the run, 1,000 files)"
                if st else "—", limit="SQLite page cache + Swift runtime")
    if wanted("join"):
        bench_join()  # a row saying so for a variant that fails
    if wanted("hostile"):
        try:
            bench_hostile()
        except Exception as e:  # a row saying so: the figures before it are kept
            log(f"hostile failed: {e!r}")
            row("1,000 hostile inbound connections held open", "legitimate sync latency unchanged; threads and RSS "
                "bounded (≤ 64 MiB), back to idle after", f"failed: {e}; load {loadavg()}")
    lines = ["| figure | target | PeerShare | Syncthing 1.19, same run | PeerShare vs Syncthing | physical limit |",
             "| --- | --- | --- | --- | --- | --- |"]
    lines += ["| " + " | ".join(r) + " |" for r in ROWS]
    table = "\n".join(lines) + "\n"
    print(table)
    if "--markdown" in ARGS:
        open(ARGS["--markdown"], "w").write(table)
    log(f"done in {time.monotonic() - t_start:.0f} s")


if __name__ == "__main__":
    main()
