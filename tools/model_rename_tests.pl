#!/usr/bin/perl -pi
# Tests of the node API (issue 19): every test that opens `f` opens its model
# `m` beside it and closes it first; node calls, and the file's helpers in
# the test that walk nodes (HELPERS below), take `m`. Helpers get
# `mtlbx_file *f = mtlbx_model_file(m)` for what else they read.
BEGIN { $H = $ENV{HELPERS} // 'label|child_kind|child_tag|library_node|function_node|walk_all|check_at_offsets|find_kind'; }
s/^(\s*)((?:mtlbx_file \*)?f = open_\w+\([^;]*\);)$/$1$2\n$1mtlbx_model *m = mtlbx_model_open(f);/;
s/^(\s*)(mtlbx_close\(f\);)$/$1mtlbx_model_close(m);\n$1$2/;
s/\b(mtlbx_root|mtlbx_node_\w+|node_window_open|node_window_fill|$H)\(f\b/$1(m/g;
s/\b(mtlbx_function_interface_(?:cached|keep))\(/$1(m, /g;
s/^((?:static )?[\w ]+\*?\b(?:$H)\()mtlbx_file \*f\b(.*\)\s*)$/$1mtlbx_model *m$2/;
