# Turns data/requirements.tsv into the C tables src/lib/requirements.c
# compiles (src/lib/requirements_table.h), so the data file stays the one
# copy of the tables. A malformed row stops the build with its line number.
BEGIN { FS = "\t"; n_msl = 0; n_air = 0; bad = 0 }

function version(s, what) {
    if (s !~ /^[0-9]+\.[0-9]+$/) {
        printf "%s:%d: %s \"%s\" is not MAJOR.MINOR\n", FILENAME, FNR, what, s > "/dev/stderr"
        bad = 1
        return "0, 0"
    }
    split(s, p, ".")
    return (p[1] + 0) ", " (p[2] + 0)
}

/^#/ || /^[ \t]*$/ { next }

$1 == "msl" && NF == 7 {
    row = "    { " version($2, "MSL version") ", {"
    for (i = 3; i <= 7; i++)
        row = row " { " version($i, "OS version") " }" (i < 7 ? "," : "")
    msl[n_msl++] = row " } },"
    next
}
$1 == "air" && NF == 3 {
    air[n_air++] = "    { " version($2, "AIR version") ", " version($3, "MSL version") " },"
    next
}
{
    printf "%s:%d: not an msl row (7 columns) or an air row (3 columns)\n", FILENAME, FNR > "/dev/stderr"
    bad = 1
}

END {
    if (bad || n_msl == 0 || n_air == 0)
        exit 1
    print "/* Generated from data/requirements.tsv by tools/requirements-table.awk: do not edit. */"
    print "static const struct req_msl_row REQ_MSL[] = {"
    for (i = 0; i < n_msl; i++) print msl[i]
    print "};"
    print "static const struct req_air_row REQ_AIR[] = {"
    for (i = 0; i < n_air; i++) print air[i]
    print "};"
}
