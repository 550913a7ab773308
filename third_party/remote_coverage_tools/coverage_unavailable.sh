#!/bin/sh
echo "coverage is unavailable in this offline build (remote_coverage_tools is a local stub)" >&2
exit 1
