#!/bin/sh
# Regenerates configure and the Makefile templates.
exec autoreconf --force --install --verbose "$(dirname "$0")"
