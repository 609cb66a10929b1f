#!/bin/sh
# `mtlbx sig` and `mtlbx dump --json --interfaces`, the real binary:
#   - the sample's declarations, exactly (tests/sig_sample.expected, written
#     by hand from tools/fixtures/*.ll, not from mtlbx's output; each
#     "// requires" line is data/requirements.tsv's rows for the sample's
#     macOS 15.0 target, MSL 3.2 and AIR 2.7);
#   - --json and dump --interfaces against CONTRACT.md's FUNCTION_INTERFACE
#     keys, one interface per function, on the sample and every corpus file;
#   - every kernel of candle-steel-gemm has its buffer bindings, and the
#     argument names of a sample of corpus functions are those llvm-dis
#     prints (the exhaustive llvm-dis comparison is the reader's test);
#   - bindings as MSL (issue 36): ccv-mfa's sgemm's threadgroup memory is
#     [[threadgroup(0)]] and its 25 function constants are declared; ggml's
#     older AIR takes each pointer's address space from the parameter type;
#   - hostile: a module whose bitstream is cut gives one error line naming
#     the file and an offset inside that module, the other functions still
#     print, exit 1; no such function: exit 1; not a metallib: exit 2;
#   - no control byte from a file reaches the terminal.
# The corpus parts skip (with a message) when ../shared/corpus is absent.
MTLBX_BIN=${MTLBX_BIN:-$(pwd)/src/mtlbx}
SRC=${MTLBX_SRCDIR:-${srcdir:-.}}
CORPUS=${MTLBX_CORPUS:-$SRC/../shared/corpus}
SAMPLE=$SRC/data/sample.metallib
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 is not installed"; exit 77; }
WORK=$(mktemp -d "${TMPDIR:-/tmp}/mtlbx-sig.XXXXXX") || exit 1
trap 'rm -rf "$WORK"' EXIT
trap 'exit 1' INT TERM HUP
FAILED=0
fail() { echo "FAIL: $*"; FAILED=1; }

# --- the sample, exactly -------------------------------------------------------
"$MTLBX_BIN" sig "$SAMPLE" >"$WORK/sample.out" 2>"$WORK/sample.err"
st=$?
[ $st -eq 0 ] || fail "sig sample exited $st: $(cat "$WORK/sample.err")"
diff -u "$SRC/tests/sig_sample.expected" "$WORK/sample.out" || fail "sig sample differs from tests/sig_sample.expected"
# MSL a person could paste (issue 23): tests/msl_grammar.py checks the shape.
python3 "$SRC/tests/msl_grammar.py" "$WORK/sample.out" || fail "sig sample: not MSL declarations"

# One function by name, and a demangled name.
"$MTLBX_BIN" sig "$SAMPLE" compute_main >"$WORK/one.out" || fail "sig sample compute_main"
grep -q '^kernel void compute_main' "$WORK/one.out" || fail "sig NAME did not print compute_main"
# (its function constants' declarations come before it)
[ "$(grep -v '^constant ' "$WORK/one.out" | grep -c '^[a-z]')" -le 2 ] || fail "sig NAME printed other functions"

"$MTLBX_BIN" sig "$SAMPLE" no_such_function >/dev/null 2>"$WORK/err"
st=$?
[ $st -eq 1 ] || fail "sig with an unknown name exited $st, not 1"
grep -q "no function named 'no_such_function'" "$WORK/err" || fail "no message for an unknown name"

printf 'not a metallib at all' >"$WORK/junk"
"$MTLBX_BIN" sig "$WORK/junk" >/dev/null 2>"$WORK/err"
st=$?
[ $st -eq 2 ] || fail "sig on junk exited $st, not 2"
[ "$(wc -l <"$WORK/err")" -eq 1 ] || fail "sig on junk: not one error line"

# --- JSON against the contract ----------------------------------------------------
cat >"$WORK/check.py" <<'PY'
import json, sys
ARG = ["index", "kind", "name", "type", "location", "location_expression", "function_constant", "access",
       "address_space", "address_space_from", "properties"]
IFACE = ["stage", "inputs", "outputs", "attributes", "module"]
MODULE = ["air_version", "language_version", "compile_options", "compiler"]
def check_iface(i, where):
    if i is None:
        return
    assert list(i)[:len(IFACE)] == IFACE, (where, list(i))
    assert i["stage"] is None or isinstance(i["stage"], str), where
    for a in i["inputs"] + i["outputs"]:
        assert list(a) == ARG, (where, list(a))
        assert a["index"] is None or isinstance(a["index"], int), where
        assert a["access"] in (None, "read", "write", "read_write", "sample"), (where, a["access"])
        # A binding is a number or an expression, never both.
        assert a["location"] is None or a["location_expression"] is None, where
        for k in ("location_expression", "function_constant"):
            assert a[k] is None or (isinstance(a[k], str) and a[k]), (where, k)
        assert isinstance(a["properties"], dict), where
        assert not any(k.startswith("air.") for k in a["properties"]), where
        # An address space is a number with where it came from, or null:
        # not a pointer (from null) or not known (from "unknown").
        assert a["address_space_from"] in (None, "air.address_space", "parameter", "unknown"), where
        assert isinstance(a["address_space"], int) == (a["address_space_from"] in ("air.address_space", "parameter")), where
        if a["address_space_from"] == "air.address_space":
            assert a["properties"]["address_space"] == a["address_space"], where
    if i["stage"] is None:
        assert i["inputs"] == [] and i["outputs"] == [], where
    assert isinstance(i["attributes"], dict), where
    if i["module"] is None:   # sig --json: a module that did not decode
        assert "error" in i, where
        return
    assert list(i["module"]) == MODULE, (where, list(i["module"]))
    assert isinstance(i["module"]["compile_options"], list), where
mode, path = sys.argv[1], sys.argv[2]
doc = json.load(open(path))
if mode == "sig":
    for o in doc:
        # Each element is a FUNCTION_INTERFACE, with name, demangled,
        # library, function (and error) after its own keys.
        check_iface(o, o["name"])
        assert o["module"] is not None or "error" in o, o["name"]
    print(len(doc))
else:
    n = 0
    for lib in doc["libraries"]:
        for f in lib["functions"]:
            assert "interface" in f, f["name"]
            check_iface(f["interface"], f["name"])
            n += 1
        offsets = [d["offset"] for d in lib["diagnostics"]]
        nulls = [f for f in lib["functions"] if f["interface"] is None]
        # Each null interface has a diagnostic with an offset in the file.
        assert len([d for d in lib["diagnostics"] if "interface not decoded" in d["message"]]) == len(nulls), path
    print(n)
PY
"$MTLBX_BIN" sig --json "$SAMPLE" >"$WORK/s.json" || fail "sig --json sample"
python3 "$WORK/check.py" sig "$WORK/s.json" >/dev/null || fail "sig --json sample breaks the contract"
python3 - "$WORK/s.json" <<'PY' || fail "sig --json sample: compute_main is not as written in compute_main.ll"
import json, sys
d = {o["name"]: o for o in json.load(open(sys.argv[1]))}
c = d["compute_main"]
assert c["stage"] == "kernel"
assert [a["name"] for a in c["inputs"]] == ["data", "params", "lut", "gid"]
assert [a["kind"] for a in c["inputs"]] == ["buffer", "buffer", "buffer", "thread_position_in_grid"]
assert [a["location"] for a in c["inputs"]] == [0, 1, 2, None]
assert [a["access"] for a in c["inputs"]] == ["read_write", "read", "read", None]
# compute_main.ll: float addrspace(1)* %data, %struct.ComputeParams addrspace(2)* %params,
# float addrspace(1)* %lut, i32 %gid.
assert [a["address_space"] for a in c["inputs"]] == [1, 2, 1, None]
assert c["inputs"][1]["properties"]["struct_type_info"] == [0, 4, 0, "float", "gain", 4, 4, 0, "uint", "count"]
assert c["inputs"][2]["properties"]["arg_unused"] is True
assert c["attributes"] == {"max_work_group_size": 256}
assert c["module"]["air_version"] == "2.7.0"
assert c["module"]["language_version"] == "Metal 3.2.0"
assert "air.compile.fast_math_enable" in c["module"]["compile_options"]
PY
"$MTLBX_BIN" dump --json --interfaces "$SAMPLE" >"$WORK/d.json" || fail "dump --interfaces sample"
python3 "$WORK/check.py" dump "$WORK/d.json" >/dev/null || fail "dump --interfaces sample breaks the contract"

# --- bindings computed from function constants, guards named (issue 23) --------
# tests/hostile_mkbitcode.py writes the module bit by bit; what it holds:
#   color0: air.render_target, @_ZL32__metal_implicit_attr_int_expr_0.96.126, i32 0
#   color1: air.function_constant !{@pred, "bool", "kUseColor1"}, air.render_target, i32 1, i32 0
#   tex:    air.function_constant (the same), air.texture, air.location_index, @..., i32 1
#   params: air.buffer, air.location_index, i32 1, i32 1 (struct Params {float gain; uint count;})
G=_ZL32__metal_implicit_attr_int_expr_0.96.126
python3 "$SRC/tests/hostile_mkbitcode.py" "$WORK/expr.metallib" expr || fail "hostile_mkbitcode.py expr"
"$MTLBX_BIN" sig --json "$WORK/expr.metallib" >"$WORK/expr.json" || fail "sig --json on computed bindings"
python3 "$WORK/check.py" sig "$WORK/expr.json" >/dev/null || fail "sig --json on computed bindings breaks the contract"
python3 - "$WORK/expr.json" "$G" <<'PY' || fail "sig --json: computed bindings or guards wrong"
import json, sys
o = json.load(open(sys.argv[1]))[0]
g = sys.argv[2]
got = [(a["name"], a["location"], a["location_expression"], a["function_constant"]) for a in o["inputs"] + o["outputs"]]
assert got == [("tex", None, g, "kUseColor1"), ("params", 1, None, None),
               ("color0", None, g, None), ("color1", 1, None, "kUseColor1")], got
PY
"$MTLBX_BIN" sig "$WORK/expr.metallib" >"$WORK/expr.out" || fail "sig on computed bindings"
grep -q "color0 \[\[color(expr /\* $G \*/)\]\]" "$WORK/expr.out" || fail "sig: color0 not marked as an expression: $(cat "$WORK/expr.out")"
grep -q "tex \[\[texture(expr /\* $G \*/), function_constant(kUseColor1)\]\]" "$WORK/expr.out" ||
    fail "sig: tex not an expression guarded by kUseColor1: $(cat "$WORK/expr.out")"
grep -q 'color(0)' "$WORK/expr.out" && fail "sig invented color(0) for a computed binding"
grep -q 'function_constant(?)' "$WORK/expr.out" && fail "sig left a guard unnamed"
grep -q '^struct F_out {' "$WORK/expr.out" && grep -q '^fragment F_out F($' "$WORK/expr.out" ||
    fail "sig: two outputs are not a return struct: $(cat "$WORK/expr.out")"
grep -q '^    float gain;  // offset 0, size 4$' "$WORK/expr.out" || fail "sig: struct Params not declared"
python3 "$SRC/tests/msl_grammar.py" "$WORK/expr.out" || fail "sig on computed bindings: not MSL declarations"

# --- hostile: one module cut short ----------------------------------------------
python3 - "$SAMPLE" "$WORK/d.json" "$WORK/cut.metallib" <<'PY'
import json, sys
data = bytearray(open(sys.argv[1], "rb").read())
fns = json.load(open(sys.argv[2]))["libraries"][0]["functions"]
m = [f for f in fns if f["name"] == "compute_main"][0]["module"]
# Keep the wrapper and the first 64 bytes of the bitstream; the rest of the
# module becomes bytes that are no valid abbreviation.
start = m["offset"] + 20 + 64
data[start:m["offset"] + m["size"]] = b"\xff" * (m["offset"] + m["size"] - start)
open(sys.argv[3], "wb").write(data)

PY
"$MTLBX_BIN" sig "$WORK/cut.metallib" >"$WORK/cut.out" 2>"$WORK/cut.err"
st=$?
[ $st -eq 1 ] || fail "sig on a cut module exited $st, not 1"
[ "$(wc -l <"$WORK/cut.err")" -eq 1 ] || fail "sig on a cut module: not exactly one error line: $(cat "$WORK/cut.err")"
grep -q "cut.metallib:[0-9]*: compute_main: interface not decoded" "$WORK/cut.err" || fail "error line does not name file, offset and function: $(cat "$WORK/cut.err")"
grep -q '^fragment ' "$WORK/cut.out" || fail "the other functions were not printed after the cut module"
grep -q 'compute_main' "$WORK/cut.out" && fail "a declaration was printed for the cut module"
"$MTLBX_BIN" dump --json --interfaces "$WORK/cut.metallib" >"$WORK/cut.json" || fail "dump --interfaces on a cut module"
python3 "$WORK/check.py" dump "$WORK/cut.json" >/dev/null || fail "dump --interfaces on a cut module: contract"

# --- the corpus --------------------------------------------------------------------
if [ ! -d "$CORPUS/expected" ]; then
    echo "SKIP (corpus part): no corpus at $CORPUS"
    [ $FAILED -eq 0 ] || exit 1
    exit 0
fi
# C++ functions by name: the mangled name, the demangled one, and the
# demangled one without its parameters; several NAMEs at once, one of
# them twice, and one that is not there (named alone in the error).
T=$CORPUS/libtracepoint-rt-ios-fat.metallib
K='kernel_thread_tracepoint(unsigned int const MTLconstant*, unsigned int, unsigned int __vector(3))'
"$MTLBX_BIN" sig "$T" _Z24vertex_thread_tracepointPU11MTLconstantKjjjjj "$K" kernel_thread_tracepoint \
    kernel_thread_tracepoint no_such_function >"$WORK/cxx.out" 2>"$WORK/cxx.err"
st=$?
[ $st -eq 1 ] || fail "sig with C++ names and one unknown exited $st, not 1"
[ "$(grep -c '^// unqualified kernel_thread_tracepoint(' "$WORK/cxx.out")" -ge 1 ] ||
    fail "sig did not find kernel_thread_tracepoint by its demangled name: $(cat "$WORK/cxx.out")"
[ "$(grep -c '^// unqualified vertex_thread_tracepoint(' "$WORK/cxx.out")" -ge 1 ] ||
    fail "sig did not find vertex_thread_tracepoint by its mangled name"
[ "$(grep -vc 'thread_tracepoint\|^// library\|^// requires \|^$' "$WORK/cxx.out")" -eq 0 ] || fail "sig printed other functions: $(cat "$WORK/cxx.out")"
[ "$(wc -l <"$WORK/cxx.err")" -eq 1 ] && grep -q "no function named 'no_such_function'" "$WORK/cxx.err" ||
    fail "sig's errors for C++ names: $(cat "$WORK/cxx.err")"

total=0 grammar=0
for f in "$CORPUS"/*.metallib "$CORPUS"/*.metallibsym; do
    [ -f "$f" ] || continue
    b=$(basename "$f")
    # A file that is not a metallib at all (yuao-failure): 2 everywhere.
    if ! "$MTLBX_BIN" dump --json "$f" >/dev/null 2>&1; then
        "$MTLBX_BIN" sig "$f" >/dev/null 2>&1
        [ $? -eq 2 ] || fail "$b: sig on a file dump refuses did not exit 2"
        continue
    fi
    "$MTLBX_BIN" dump --json --interfaces "$f" >"$WORK/c.json" 2>"$WORK/c.err"
    st=$?
    [ $st -le 1 ] || { fail "$b: dump --interfaces exited $st"; continue; }
    n=$(python3 "$WORK/check.py" dump "$WORK/c.json") || { fail "$b: dump --interfaces JSON"; continue; }
    "$MTLBX_BIN" sig "$f" >"$WORK/c.sig" 2>"$WORK/c.err"
    st=$?
    [ $st -le 1 ] || fail "$b: sig exited $st"
    # MSL declarations: brackets, structs, no member line outside one.
    python3 "$SRC/tests/msl_grammar.py" "$WORK/c.sig" >"$WORK/g.txt" || fail "$b: sig is not MSL declarations: $(head -3 "$WORK/g.txt")"
    grammar=$((grammar + 1))
    # Nothing but printable text and newlines on the terminal.
    if cat "$WORK/c.sig" "$WORK/c.err" | LC_ALL=C tr -d '\n' | LC_ALL=C grep -q '[[:cntrl:]]'; then
        fail "$b: a control byte in sig's output"
    fi
    total=$((total + n))
done
echo "dump --interfaces and sig on every corpus file: $total functions; sig output of $grammar libraries checked as MSL"
[ "$grammar" -ge 3 ] || fail "fewer than three corpus libraries' sig output checked as MSL"

# Every kernel of candle-steel-gemm has its buffer bindings.
"$MTLBX_BIN" sig --json "$CORPUS/candle-steel-gemm.metallib" >"$WORK/gemm.json" || fail "sig --json candle-steel-gemm"
python3 - "$WORK/gemm.json" <<'PY' || fail "candle-steel-gemm: a kernel without buffer bindings"
import json, sys
doc = json.load(open(sys.argv[1]))
kernels = [o for o in doc if o["stage"] == "kernel"]
assert kernels, "no kernel decoded"
for o in kernels:
    bufs = [a for a in o["inputs"] if a["kind"] == "buffer"]
    assert bufs and all(isinstance(a["location"], int) for a in bufs), o["name"]
print(len(kernels), "kernels with buffers")
PY
"$MTLBX_BIN" sig "$CORPUS/candle-steel-gemm.metallib" | grep -q '\[\[buffer(0)\]\]' || fail "candle-steel-gemm: no [[buffer(0)]] in sig"

# Bindings as MSL (issue 36): threadgroup memory is [[threadgroup(N)]];
# older AIR's pointers come from the parameter types; the function
# constants the function uses are declared before it.
"$MTLBX_BIN" sig "$CORPUS/ccv-mfa-ios16.metallib" sgemm >"$WORK/sgemm.out" || fail "sig ccv-mfa-ios16 sgemm"
grep -qF '    threadgroup float* threadgroup_block [[threadgroup(0)]],' "$WORK/sgemm.out" ||
    fail "sgemm: threadgroup_block is not threadgroup memory: $(grep threadgroup_block "$WORK/sgemm.out")"
[ "$(grep -c '^constant [a-z0-9]* [A-Za-z_0-9]* \[\[function_constant([0-9]*)\]\];' "$WORK/sgemm.out")" -eq 25 ] ||
    fail "sgemm: not 25 function constants declared: $(grep -c '^constant ' "$WORK/sgemm.out")"
grep -qF 'constant uint M [[function_constant(0)]];' "$WORK/sgemm.out" || fail "sgemm: constant M not declared"
# A visible function table takes a buffer slot (the source says [[buffer(11)]]).
grep -qF '    visible_function_table table [[buffer(11), function_constant(use_activation_function)]],' "$WORK/sgemm.out" ||
    fail "sgemm: the function table's binding: $(grep ' table ' "$WORK/sgemm.out")"
python3 "$SRC/tests/msl_grammar.py" "$WORK/sgemm.out" || fail "sig sgemm: not MSL declarations"
G=$CORPUS/ggml-acorn-llama-default.metallib
"$MTLBX_BIN" sig "$G" kernel_mul_row kernel_soft_max_f32 >"$WORK/ggml.out" || fail "sig ggml kernel_mul_row"
grep -qF '    device const float4* src0 [[buffer(0)]],' "$WORK/ggml.out" ||
    fail "ggml kernel_mul_row: src0 is not a device pointer to float4: $(grep src0 "$WORK/ggml.out")"
grep -qF '    constant ulong& nb [[buffer(28)]],' "$WORK/ggml.out" || fail "ggml kernel_mul_row: nb is not constant ulong&"
grep -qF '    threadgroup float* buf [[threadgroup(0)]],' "$WORK/ggml.out" ||
    fail "ggml kernel_soft_max_f32: buf is not threadgroup memory: $(grep ' buf ' "$WORK/ggml.out")"
"$MTLBX_BIN" sig --json "$G" kernel_mul_row >"$WORK/ggml.json" || fail "sig --json ggml kernel_mul_row"
python3 - "$WORK/ggml.json" <<'PY' || fail "ggml kernel_mul_row: address spaces are not the define line's"
import json, sys
o = json.load(open(sys.argv[1]))[0]
# define void @kernel_mul_row(<4 x float> addrspace(1)* x3, i64 addrspace(2)*, i32)
got = [(a["name"], a["address_space"], a["address_space_from"]) for a in o["inputs"]]
assert got == [("src0", 1, "parameter"), ("src1", 1, "parameter"), ("dst", 1, "parameter"),
               ("nb", 2, "parameter"), ("tpig", None, None)], got
PY

# Function constants named (issue 23): angle's blit shaders guard their
# textures and colour outputs with them.
A=$CORPUS/angle-mac-msl21-v124.metallib
"$MTLBX_BIN" sig "$A" >"$WORK/angle.out" || fail "sig angle-mac-msl21-v124"
grep -q 'srcTexture2d \[\[texture(0), function_constant(kSourceTextureType2D)\]\]' "$WORK/angle.out" ||
    fail "angle: srcTexture2d's guard not named kSourceTextureType2D"
grep -q 'function_constant(kSourceTexture2Type2D)' "$WORK/angle.out" || fail "angle: kSourceTexture2Type2D not named"
grep -q 'function_constant(kColorOutputAvailable0)' "$WORK/angle.out" || fail "angle: kColorOutputAvailable0 not named"
grep -q 'function_constant(?)' "$WORK/angle.out" && fail "angle: a guard left unnamed: $(grep -m1 'function_constant(?)' "$WORK/angle.out")"

# Argument names as llvm-dis prints them, on the first function of a few files.
if command -v llvm-dis >/dev/null 2>&1; then
    for b in candle-steel-gemm syphon-default gsm-hardware-mesh-object-hsrd mistralrs-default; do
        f=$CORPUS/$b.metallib
        name=$("$MTLBX_BIN" ls "$f" | awk 'NR == 1 { print $NF }')
        rm -rf "$WORK/x"
        "$MTLBX_BIN" extract "$f" -o "$WORK/x" -f "$name" >/dev/null 2>&1 || { fail "$b: extract $name"; continue; }
        llvm-dis "$WORK/x/$name.air" -o "$WORK/x.ll" 2>/dev/null || { fail "$b: llvm-dis $name"; continue; }
        "$MTLBX_BIN" sig --json "$f" "$name" >"$WORK/x.json" || fail "$b: sig --json $name"
        python3 - "$WORK/x.json" "$WORK/x.ll" <<'PY' || fail "$b: $name: argument names differ from llvm-dis"
import json, re, sys
o = json.load(open(sys.argv[1]))[0]
text = open(sys.argv[2], errors="replace").read()
names = [a["name"] for a in o["inputs"] if a["name"] is not None]
for n in names:
    assert '!"air.arg_name", !"%s"' % n in text, n
stage_lists = re.findall(r'^!air\.(kernel|vertex|fragment|mesh|object|visible) = ', text, re.M)
assert (o["stage"] in stage_lists) if o["stage"] else True, (o["stage"], stage_lists)
PY
    done
else
    echo "SKIP (llvm-dis part): llvm-dis is not installed"
fi
[ $FAILED -eq 0 ] || exit 1
exit 0
