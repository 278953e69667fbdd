#!/bin/sh
# SPDX-License-Identifier: MIT
# The browser build checked against the native one: tools/web-build.sh
# builds WEB_BUILD (emscripten, Lua from Debian's source package); then
#   - every demo runs headless in the wasm module under node
#     (web/run-node.js) for the ticks its header names (else 600) and must
#     give the hash NATIVE_BUILD's `steer run --headless` gives;
#   - the page (WEB_BUILD/web, served on 127.0.0.1 by a small Python
#     server) is loaded in headless Chromium (Debian's chromium) with
#     ?demo=flock&test=1&ticks=600: the hash it writes into the DOM must be
#     the native one, and its own checks (a reload keeps every agent, a
#     broken reload names the file and line and the last good version runs
#     on, a click shows the inspector) must pass;
#   - the page opened as a person would (?demo=pursuit) runs in real time:
#     after 3 s (Chromium's virtual time) it shows about 180 ticks, and
#     the hash it shows is the native build's at that tick;
#   - a screenshot of that page must show the flock: at least 2000 pixels
#     in the boids' colour, spread over at least 20 cells of 40x40 pixels.
# Writes one line per check to WEB_BUILD/web-results.json in the form of
# meson's testlog.json (run-tests.sh counts them) and the screenshot to
# WEB_BUILD/web-check.png; exits 1 when a check fails. Installs emscripten,
# chromium and nodejs when missing.
#   tools/web-check.sh [WEB_BUILD [NATIVE_BUILD]]   (build-web, build)
set -u
cd "$(dirname "$0")/.."
web="${1:-build-web}"
native="${2:-build}"
results="$web/web-results.json"
mkdir -p "$web"
rm -f "$results"
fail() {
    echo "web-check: $*" >&2
    printf '{"name": "web-build", "result": "FAIL"}\n' >>"$results"
    exit 1
}
tools/setup.sh --packages emscripten chromium nodejs || fail "cannot install emscripten, chromium and nodejs"
tools/web-build.sh "$web" || fail "tools/web-build.sh $web failed"
ninja -C "$native" steer >/dev/null || fail "cannot build $native/steer"
tmp=$(mktemp -d)
server=""
trap '[ -n "$server" ] && kill "$server" 2>/dev/null; rm -rf "$tmp"' EXIT

# every demo: native and wasm side by side
runs=""
for demo in demos/*.lua; do
    name=$(basename "$demo" .lua)
    ticks=$(sed -n 's/^-- Headless: steer run --headless --ticks \([0-9]*\).*/\1/p' "$demo" | head -n 1)
    runs="$runs $name:${ticks:-600}"
done
(
    for run in $runs; do
        name=${run%%:*} ticks=${run#*:}
        h=$(STEER_THREADS=1 "$native/steer" run --headless --ticks "$ticks" "demos/$name.lua" 2>&1 |
            sed -n 's/.*, hash \([0-9a-f]*\)$/\1/p' | tail -n 1)
        echo "$name $ticks ${h:-failed}"
    done >"$tmp/native.txt"
) &
node web/run-node.js "$web/web/steer-web.js" $runs 2>&1 | grep -E '^[a-z_0-9]+ [0-9]+ ' >"$tmp/wasm.txt"
wait

# the page in headless Chromium, served from 127.0.0.1 on a free port
python3 - "$web/web" "$tmp/port" <<'PY' &
import functools, http.server, sys
class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass
handler = functools.partial(Quiet, directory=sys.argv[1])
server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
open(sys.argv[2] + ".tmp", "w").write(str(server.server_address[1]))
__import__("os").rename(sys.argv[2] + ".tmp", sys.argv[2])
server.timeout = 1
import time
end = time.time() + 300 # it stops by itself
while time.time() < end:
    server.handle_request()
PY
server=$!
i=0
while [ ! -f "$tmp/port" ] && [ $i -lt 50 ]; do
    sleep 0.1
    i=$((i + 1))
done
url="http://127.0.0.1:$(cat "$tmp/port" 2>/dev/null)/?demo=flock&ticks=600&test=1"
# --virtual-time-budget: Chromium waits for the page's work (the module's
# download and compilation, the run) before it dumps or shoots
chrome="chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --virtual-time-budget=60000"
timeout 120 $chrome --dump-dom "$url" >"$tmp/dom.html" 2>"$tmp/chromium.log"
timeout 120 $chrome --window-size=1400,820 --screenshot="$web/web-check.png" "$url" >/dev/null 2>>"$tmp/chromium.log"
# the page as a person opens it: 3 s of real time (virtual here) at the
# world's 60 ticks a second, then the tick and hash it shows, and the
# native build's hash at that tick
chromium --headless --no-sandbox --disable-gpu --virtual-time-budget=3000 --dump-dom \
    "http://127.0.0.1:$(cat "$tmp/port" 2>/dev/null)/?demo=pursuit" 2>>"$tmp/chromium.log" |
    sed -n 's/.*id="status">tick \([0-9]*\) .* hash \([0-9a-f]*\).*/\1 \2/p' >"$tmp/realtime.txt"
read -r rt_ticks rt_hash <"$tmp/realtime.txt" || rt_ticks=0
h=$(STEER_THREADS=1 "$native/steer" run --headless --ticks "${rt_ticks:-0}" demos/pursuit.lua 2>&1 |
    sed -n 's/.*, hash \([0-9a-f]*\)$/\1/p' | tail -n 1)
echo "${rt_ticks:-0} ${rt_hash:-none} ${h:-failed}" >"$tmp/realtime.txt"

python3 - "$tmp/native.txt" "$tmp/wasm.txt" "$tmp/dom.html" "$web/web-check.png" "$tmp/realtime.txt" "$results" <<'PY'
import html, json, re, struct, sys, zlib
native_file, wasm_file, dom_file, png_file, realtime_file, out = sys.argv[1:]
def table(path):
    rows = {}
    for line in open(path):
        parts = line.split()
        if len(parts) >= 3:
            rows[parts[0]] = parts[2]
    return rows
native, wasm = table(native_file), table(wasm_file)
lines, ok = [], True
def result(name, good, text):
    global ok
    ok = ok and good
    print(f"web-check: {name}: {text}" + ("" if good else "  FAILED"))
    lines.append(json.dumps({"name": name, "result": "OK" if good else "FAIL"}))
for name in native:
    same = native[name] == wasm.get(name) and native[name] != "failed"
    result("web-" + name, same, f"native {native[name]} wasm {wasm.get(name)}")
result("web-demos", bool(native) and len(native) == len(wasm), f"{len(native)} demos native, {len(wasm)} in wasm")

dom = open(dom_file, errors="replace").read()
m = re.search(r'<pre id="hash"[^>]*>([^<]*)</pre>', dom)
page_hash = m.group(1).split()[-1] if m and m.group(1).strip() else None
result("web-page-hash", page_hash is not None and page_hash == native.get("flock"),
       f"flock 600 ticks: page {page_hash}, native {native.get('flock')}")
m = re.search(r'<pre id="test"[^>]*>([^<]*)</pre>', dom)
test = json.loads(html.unescape(m.group(1))) if m and m.group(1).strip() else {}
for check in ("reload", "reload_error", "inspect"):
    c = test.get("checks", {}).get(check, {})
    result("web-page-" + check, bool(c.get("ok")), c.get("detail", "not run"))
rt = (open(realtime_file).read().split() + ["0", "none", "failed"])[:3]
rt_ticks = int(rt[0]) if rt and rt[0].isdigit() else 0
result("web-page-realtime", 90 <= rt_ticks <= 200 and rt[1] == rt[2],
       f"pursuit after 3 s: tick {rt_ticks} (60 a second), page {rt[1]}, native {rt[2]}")

# the screenshot: a PNG of 8-bit RGB or RGBA, decoded here (no imaging library)
def pixels(path):
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, w = 8, b"", 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and ctype in (2, 6) and not interlace, "unexpected PNG format"
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw, stride = zlib.decompress(idat), w * bpp
    prev, rows = bytearray(stride), []
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b, c = prev[x], prev[x - bpp] if x >= bpp else 0
            if f == 1: line[x] = (line[x] + a) & 255
            elif f == 2: line[x] = (line[x] + b) & 255
            elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return w, h, bpp, rows
try:
    w, h, bpp, rows = pixels(png_file)
    boid = (120, 200, 255) # the viewer's first palette colour, the flock's tag
    count, cells = 0, set()
    for y, row in enumerate(rows):
        for x in range(w):
            r, g, b = row[x * bpp], row[x * bpp + 1], row[x * bpp + 2]
            if abs(r - boid[0]) + abs(g - boid[1]) + abs(b - boid[2]) < 40:
                count += 1
                cells.add((x // 40, y // 40))
    result("web-page-screenshot", count >= 2000 and len(cells) >= 20,
           f"{w}x{h}, {count} pixels in the boids' colour over {len(cells)} cells of 40x40")
except (OSError, AssertionError, zlib.error, struct.error) as e:
    result("web-page-screenshot", False, f"no screenshot: {e}")
open(out, "w").write("\n".join(lines) + "\n")
sys.exit(0 if ok else 1)
PY
status=$?
[ $status -ne 0 ] && grep -v dbus "$tmp/chromium.log" | tail -n 5 >&2
exit $status
