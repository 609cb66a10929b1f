#!/bin/sh
# Hostile Info.plist files under the release gate (issue 34): libplist 2.2
# has no bounds of its own (an XML plist 200,000 arrays deep overflowed its
# stack; a 200-byte binary plist whose arrays each name the next one 14
# times ran for minutes), so src/lib/gate/info_plist.c bounds them before it
# reads them (the deep ones here are 5,000 levels: past the bound, short
# of what crashes libplist). Each one, in an .ipa beside the iOS fixture,
# must give its one warning ("not read: ...") within seconds, never a
# crash or a hang; a sound plist still counts. Built at test time.
# Issue 40: a megabyte of "</dict" with no '>' (the depth check scanned
# the rest of the file once per tag: 45-78 s), and "</array>" inside an
# XML comment, which must not lower the depth count (70 arrays deep
# behind a comment of 70 closings passed the check).
. "${MTLBX_SRCDIR:-${srcdir:-.}}/tests/hostile_lib.sh"
need python3
LIB=$SRC/tests/fixtures/legacy-v122-ios.metallib   # iOS, triple air64-apple-ios12.0.0
cd "$WORK" || exit 1
python3 - <<'EOF' || exit 1
import plistlib, struct

def bplist(objs, top=0, ref=4, off=4):
    body = b"bplist00"
    offsets = []
    for o in objs:
        offsets.append(len(body))
        body += o
    table = len(body)
    for o in offsets:
        body += o.to_bytes(off, "big")
    return body + b"\0" * 6 + bytes([off, ref]) + struct.pack(">QQQ", len(objs), top, table)

def arr(refs, ref=4):
    n = len(refs)
    head = bytes([0xA0 | n]) if n < 15 else bytes([0xAF, 0x12]) + n.to_bytes(4, "big")
    return head + b"".join(r.to_bytes(ref, "big") for r in refs)

plists = {
    # 14 references to the next array, 12 deep: 14^11 nodes unfolded
    "dag": bplist([arr([i + 1] * 14) for i in range(11)] + [arr([])]),
    "cycle": bplist([arr([1]), arr([0])]),
    "deep-binary": bplist([arr([i + 1]) for i in range(5000)] + [arr([])]),
    "outside": bplist([arr([7])]),
    "truncated": plistlib.dumps({"MinimumOSVersion": "12.0"}, fmt=plistlib.FMT_BINARY)[:-20],
    "deep-xml": ('<?xml version="1.0"?><plist version="1.0">' + "<array>" * 5000 + "</array>" * 5000
                 + "</plist>").encode(),
    "unclosed": ('<?xml version="1.0"?><plist version="1.0"><dict>' + "</dict" * ((1 << 20) // 6 - 20)).encode(),
    "comment-deep": ('<?xml version="1.0"?><plist version="1.0"><!--' + "</array>" * 70 + "-->" + "<array>" * 70
                     + "</array>" * 70 + "</plist>").encode(),
    "huge": plistlib.dumps({"MinimumOSVersion": "12.0", "pad": "x" * (1100 << 10)}),
    "not-a-dict": plistlib.dumps(["MinimumOSVersion", "12.0"], fmt=plistlib.FMT_BINARY),
    "sound": plistlib.dumps({"MinimumOSVersion": "11.0", "CFBundleSupportedPlatforms": ["iPhoneOS"]},
                            fmt=plistlib.FMT_BINARY),
}
for name, data in plists.items():
    with open(name + ".plist", "wb") as f:
        f.write(data)
EOF
for kind in dag cycle deep-binary outside truncated deep-xml unclosed comment-deep huge not-a-dict sound; do
    python3 "$SRC/tests/mkrelease.py" "$kind.ipa" "Payload/A.app/Info.plist=$kind.plist" \
        "Payload/A.app/default.metallib=$LIB" || exit 1
    start=$(date +%s)
    "$BIN" find --os declared "$kind.ipa" >out 2>err
    st=$? took=$(($(date +%s) - start))
    if [ "$kind" = sound ]; then
        # iOS 12.0 (its triple) over MinimumOSVersion 11.0: read, and it gates.
        if [ $st -eq 1 ] && grep -q "more than the iOS 11.0 its package declares (MinimumOSVersion 11.0 in" out; then
            ok "a sound binary plist is read ($took s)"
        else
            fail "sound plist: exit $st, $(cat out err)"
        fi
    elif [ "$kind" = comment-deep ] && ! grep -q "nested more than 64 deep" out; then
        fail "comment-deep: a comment lowered the depth count: $(cat out err)"
    elif [ $st -eq 1 ] && [ $took -le 5 ] && [ "$(grep -c ':0: warning: ' out)" -eq 1 ] &&
        grep -q "Payload/A.app/Info.plist: not read: " out; then
        ok "$kind: one warning in $took s: $(sed -n 's/.*Info.plist: not read: //p' out)"
    else
        fail "$kind: exit $st after $took s, $(cat out err)"
    fi
done
finish
