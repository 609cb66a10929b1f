#!/bin/sh
# check_layers.sh BUILD_DIR [LAYERS_PY]: the link-level call graph of a
# finished build has no import circle inside a folder and no call against
# the layer order. The order, highest first, is the design:
#   src/ui, src/cli   the explorer and the commands (they never call each other's files)
#   src/program          writing files, running llvm-dis, release pairing
#   src/lib           the parser library, itself in layers (src/lib/local.mk):
#                     api > gate > writer > json > compare > model > checks > bitcode > container
# src/ui is in layers of its own (src/ui/README.md): loop > views > verbs >
# widgets > core > model > work > term > text.
# LAYERS_PY defaults to ../shared/tools/layers.py beside the source tree.
# Exit 0 when all hold; 1 (with the circles and calls named) otherwise.
build=${1:?usage: check_layers.sh BUILD_DIR [LAYERS_PY]}
top=$(cd "$(dirname "$0")/.." && pwd)
layers=${2:-$top/../shared/tools/layers.py}
if [ ! -f "$layers" ]; then
    echo "check_layers: $layers not found (it ships in ../shared/tools)" >&2
    exit 2
fi
status=0
run() {
    echo "layers.py $*"
    python3 "$layers" "$build" "$@" || status=1
}
run --folder src/lib --order src/lib/api,src/lib/gate,src/lib/writer,src/lib/json,src/lib/compare,src/lib/model,src/lib/checks,src/lib/bitcode,src/lib/container
run --folder src/cli
run --folder src/program
run --folder src/ui --order src/ui/loop,src/ui/views,src/ui/verbs,src/ui/widgets,src/ui/core,src/ui/model,src/ui/work,src/ui/term,src/ui/text
# Across folders only the direction counts here: circles inside a folder
# are the folder runs' business.
echo "layers.py --order src/ui,src/cli,src/program,src/lib"
last=$(python3 "$layers" "$build" --order src/ui,src/cli,src/program,src/lib | grep '^upward\|^files')
printf '%s\n' "$last"
case $last in *"upward 0") ;; *) status=1 ;; esac
exit $status
