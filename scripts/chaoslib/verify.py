"""Checks on what the daemons hold: replicas alike, photo data right, nothing left over,
SQLite stores intact."""

import glob
import hashlib
import os
import shutil
import sqlite3
import tempfile

# Fields that describe a peer's own copy rather than the zone: which of its stores holds it.
LOCAL_FIELDS = ("store",)


def canonical(rows):
    """A listing with the local-only fields dropped, keyed and sorted by ID."""
    return {row["id"]: {k: v for k, v in row.items() if k not in LOCAL_FIELDS} for row in rows}


def replica_differences(owner_photos, participant_photos, owner_tags, participant_tags, limit=10):
    """Lines describing how the two replicas of the share differ (empty when identical)."""
    lines = []
    for what, a, b in (("photo", canonical(owner_photos), canonical(participant_photos)),
                       ("tag", canonical(owner_tags), canonical(participant_tags))):
        for key in sorted(set(a) | set(b)):
            if a.get(key) != b.get(key):
                lines.append(f"{what} {key}: owner {describe(a.get(key))} / participant {describe(b.get(key))}")
    if len(lines) > limit:
        lines = lines[:limit] + [f"… and {len(lines) - limit} more differences"]
    return lines


def describe(row):
    if row is None:
        return "missing"
    return "{" + ", ".join(f"{k}={row[k]!r}" for k in sorted(row) if k not in ("created_at", "unique_name")) + "}"


def sha256_file(path):
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def blob_path(daemon, store, sha):
    return os.path.join(daemon.library, "blobs", store, sha[:2], sha)


def check_data(daemon, photos, export_dir):
    """Every live photo: not pending, its blob file present with the listed hash, and
    `photo export` giving the same bytes. Returns (problems, bytes hashed)."""
    problems, hashed = [], 0
    for photo in photos:
        ident = f"the {daemon.role}'s photo {photo['id']}"
        if photo.get("pending"):
            problems.append(f"{ident} is still pending after sync --wait")
            continue
        path = blob_path(daemon, photo["store"], photo["sha256"])
        if not os.path.isfile(path):
            problems.append(f"{ident}: no data file {path}")
        elif (actual := sha256_file(path)) != photo["sha256"]:
            problems.append(f"{ident}: data file {path} hashes to {actual}, listed {photo['sha256']}")
        else:
            hashed += os.path.getsize(path)
        out = os.path.join(export_dir, f"{daemon.role}-{photo['id']}")
        result = daemon.cli("photo", "export", photo["id"], out, timeout=60)
        if result.status != 0:
            problems.append(f"{ident}: photo export failed: {result.describe()}")
            continue
        actual = sha256_file(out)
        os.unlink(out)
        if actual != photo["sha256"]:
            problems.append(f"{ident}: photo export gave bytes hashing to {actual}, listed {photo['sha256']}")
        hashed += photo["size"]
    return problems, hashed


def blob_files(daemon):
    """(store, hash, path) of every file under library/blobs/STORE/XX/, and every other
    path there that is neither such a file nor the tmp directory."""
    found, strays = [], []
    root = os.path.join(daemon.library, "blobs")
    for store in sorted(os.listdir(root)):
        for entry in sorted(os.listdir(os.path.join(root, store))):
            path = os.path.join(root, store, entry)
            if entry == "tmp":
                continue
            if len(entry) != 2 or not os.path.isdir(path):
                strays.append(path)
                continue
            for name in sorted(os.listdir(path)):
                file = os.path.join(path, name)
                if len(name) == 64 and name.startswith(entry):
                    found.append((store, name, file))
                else:
                    strays.append(file)
    return found, strays


def orphans(daemon, photos):
    """Blob files whose hash no live photo of that store lists, and stray files."""
    live = {(p["store"], p["sha256"]) for p in photos}
    found, strays = blob_files(daemon)
    return [path for store, sha, path in found if (store, sha) not in live] + strays


def leftovers(daemon):
    """Files in library/blobs/*/tmp/ (partial transfers, imports in progress)."""
    return sorted(glob.glob(os.path.join(daemon.library, "blobs", "*", "tmp", "*")))


def integrity(library):
    """{store file name: integrity_check result} for every SQLite store in `library`."""
    results = {}
    for path in sorted(glob.glob(os.path.join(library, "*.sqlite"))):
        try:
            db = sqlite3.connect(f"file:{path}?mode=rw", uri=True, timeout=30)
            try:
                rows = db.execute("PRAGMA integrity_check").fetchall()
            finally:
                db.close()
            results[os.path.basename(path)] = "; ".join(str(r[0]) for r in rows)
        except sqlite3.Error as e:
            results[os.path.basename(path)] = f"error: {e}"
    return results


def inspect_killed(library):
    """The stores as a SIGKILL left them, read from a copy (database and WAL, recovered as a
    restart recovers them) so that the daemon's own recovery is left untouched: the
    integrity_check results, and the rows the durability check needs (photos: id -> (name,
    deleted); ratings: id -> deleted). Reading rows couples this script to two columns of
    the schema (Sources/Store/Schema/Migrations.swift); a read error is reported as such."""
    with tempfile.TemporaryDirectory(prefix="chaos-killed-") as copy:
        for path in glob.glob(os.path.join(library, "*.sqlite")) + glob.glob(os.path.join(library, "*.sqlite-wal")):
            shutil.copy2(path, copy)
        results = integrity(copy)
        photos, ratings, errors = {}, {}, []
        for path in sorted(glob.glob(os.path.join(copy, "*.sqlite"))):
            try:
                db = sqlite3.connect(path, timeout=30)
                try:
                    photos.update((i, (n, d)) for i, n, d in db.execute("SELECT id, name, deleted FROM photos"))
                    ratings.update(db.execute("SELECT id, deleted FROM ratings"))
                finally:
                    db.close()
            except sqlite3.Error as e:
                errors.append(f"reading {os.path.basename(path)}: {e}")
        return results, photos, ratings, errors
