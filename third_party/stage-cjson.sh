#!/bin/sh
# Stage cJSON from the distribution's packages into DEST without root:
#   apt-get download libcjson1 libcjson-dev; dpkg-deb -x; keep header + shared object.
# Used only when pkg-config finds no system libcjson. The result is a plain folder
# (no symbolic links) so it can travel to a machine without a package manager.
set -eu
dest=${1:?usage: stage-cjson.sh DEST}
if [ -f "$dest/lib/libcjson.so.1" ] && [ -f "$dest/include/cjson/cJSON.h" ]; then
    exit 0
fi
command -v apt-get >/dev/null 2>&1 || {
    echo "stage-cjson: no libcjson found by pkg-config and no apt-get to fetch it;" >&2
    echo "stage-cjson: install libcjson-dev, or copy a staged $dest from another machine" >&2
    exit 1
}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
( cd "$work" && apt-get download libcjson1 libcjson-dev >/dev/null )
for deb in "$work"/*.deb; do dpkg-deb -x "$deb" "$work/root"; done
mkdir -p "$dest/include/cjson" "$dest/lib"
cp "$work/root/usr/include/cjson/cJSON.h" "$dest/include/cjson/"
so=$(find "$work/root" -name 'libcjson.so.1.*' -type f | head -n 1)
[ -n "$so" ] || { echo "stage-cjson: libcjson.so.1.* not found in the packages" >&2; exit 1; }
cp "$so" "$dest/lib/libcjson.so.1"
cp "$so" "$dest/lib/libcjson.so"
cp "$work/root/usr/share/doc/libcjson1/copyright" "$dest/COPYRIGHT.cjson" 2>/dev/null || true
echo "stage-cjson: staged cJSON into $dest"
