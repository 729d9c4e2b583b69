#!/bin/sh
# make-pictures.sh RECORD_DIR IMAGES_DIR - README.md's two pictures of one recorded session.
#
# RECORD_DIR is what `make record SCRIPT=tools/pictures.script` left (`make pictures` runs
# both): its capture.tkc holds, after the boot's, a function_graph session (with the
# syscall events) and an mmiotrace session of the edu device. This script writes
#   IMAGES_DIR/kernelshark.png   KernelShark 2 showing the function_graph session's trace.dat,
#                                run under Xvfb and photographed with ImageMagick's import
#   IMAGES_DIR/timeline.png      both sessions' trace.json drawn by tools/timeline_svg.py as
#                                Perfetto draws them (Perfetto's UI needs the internet, so it
#                                is not used), rasterised by rsvg-convert
# Debian packages: kernelshark, xvfb, imagemagick, librsvg2-bin (tools/install-deps.sh with
# PICTURES=1).
set -eu
record=$1
images=$2
here=$(cd "$(dirname "$0")/.." && pwd)
tkconvert=$here/build/tools/tkconvert
work=$record/pictures
rm -rf "$work"
mkdir -p "$work" "$images"

capture=$record/capture.tkc
n=$("$tkconvert" --check "$capture" | sed -n 's/^sessions: \([0-9]*\).*/\1/p')
[ "${n:-0}" -ge 3 ] || { echo "make-pictures: $capture has ${n:-0} sessions, want the boot's and two" >&2; exit 1; }
"$tkconvert" --session $((n - 1)) --tracedat "$work/graph.dat" --json "$work/graph.json" "$capture"
"$tkconvert" --session "$n" --json "$work/mmio.json" "$capture"

# CPU 0 (the only one) and a task plot for each task of the session (pid 0, idle, has none).
pids=$(python3 -c 'import json, sys
pids = sorted({e["pid"] for e in json.load(open(sys.argv[1]))["traceEvents"] if e.get("pid")})
print(",".join(map(str, pids)))' "$work/graph.json")

# KernelShark refuses to start quietly as root (a dialog covers the window): it runs as
# nobody then, with a home of its own, on an X server that lets it connect (-ac).
run_as=""
if [ "$(id -u)" -eq 0 ]; then
    run_as="setpriv --reuid=65534 --regid=65534 --clear-groups"
    chmod 755 "$work"
    chmod 644 "$work/graph.dat"
fi
mkdir -p "$work/home"
chmod 777 "$work/home"
cat > "$work/shoot.sh" <<SHOT
#!/bin/sh
HOME=$work/home $run_as kernelshark -geometry 1600x900+0+0 --cpu 0 --pid "$pids" "$work/graph.dat" > "$work/kernelshark.log" 2>&1 &
ks=\$!
sleep 10
import -window root "$images/kernelshark.png"
kill \$ks
SHOT
chmod +x "$work/shoot.sh"
xvfb-run -a -s "-ac -screen 0 1600x900x24" "$work/shoot.sh"

python3 "$here/tools/timeline_svg.py" --title "tracekern: edu under function_graph + syscalls, then under mmiotrace (trace.json)" \
    "$work/graph.json" "$work/mmio.json" > "$work/timeline.svg"
rsvg-convert -o "$images/timeline.png" "$work/timeline.svg"
echo "make-pictures: $images/kernelshark.png $images/timeline.png"
