#!/usr/bin/env bash
# Seeds for FuzzSegmentJournal: journals as a recorder writes them, one torn.
set -euo pipefail
out=$1
printf 'S\tlive/2026-12-04_10-00-00-000000.mp4\t1796378400000000\t1796378400000000\tk3x9a\t0\nE\tlive/2026-12-04_10-00-00-000000.mp4\t5000000\n' >"$out/whole"
printf 'S\tlive/a.ts\t1796378400000000\t1796374800000000\trun1\t2\nE\tlive/a.ts\t-1\nS\tlive/b.ts\t17963\t0\trun1\t3\nE\tlive/b' >"$out/torn"
