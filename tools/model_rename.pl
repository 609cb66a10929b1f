#!/usr/bin/perl -pi
# Call sites of the node API, from the file to its model (mtlbx_model, issue
# 19): `mtlbx_node_child(ex->files[i].f, ...)` -> `(ex->files[i].m, ...)`,
# `mtlbx_root(ef->f)` -> `mtlbx_root(ef->m)`. Run over src/ui, src/cli and
# tests/ as `perl tools/model_rename.pl FILE...`; the first argument of
# every node call then names the struct ex_file's model. Calls whose first
# argument is a local `f` are left alone for a person to give a model.
s/\b(mtlbx_root|mtlbx_node_(?:child_count|child_of_kind|child|label|fields|at_offset|flags|expandable))\(((?:[\w\]\[]|\.|->|\(ex\))+?)(\.|->)f\b/$1($2$3m/g;
# With MODEL_LOCALS=1 (for files whose local `mtlbx_file *f` only feeds node
# calls: src/ui/{function_step,funcview,tree_panel,compare_view}.c and
# funcview.h), the local and parameter become `mtlbx_model *model` too.
if ($ENV{MODEL_LOCALS}) {
    s/\bmtlbx_file \*f = ((?:[\w\]\[]|\.|->)+)\.f;/mtlbx_model *model = $1.m;/g;
    s/\bmtlbx_file \*f([,)])/mtlbx_model *model$1/g;
    s/\b(mtlbx_root|mtlbx_node_\w+|child_where|build)\(f([,)])/$1(model$2/g;
    s/\b(build|function_count|function_node|view_position)\((\w+), f,/$1($2, model,/g;
    s/\b(function_count|function_node)\(ex, ex->files\[(\w+)\]\.f,/$1(ex, ex->files[$2].m,/g;
    s/\b(funcview_child(?:_count)?\((?:[^,()]|\([^()]*\))+), f,/$1, model,/g;
}
s/\b(funcview_child(?:_count)?\(&ex->fview, ex->files\[\w+\])\.f\b/$1.m/g;
