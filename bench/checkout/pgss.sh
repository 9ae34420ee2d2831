# Issue 13: what PostgreSQL does for each checkout, per statement, sourced by run.sh (it uses run.sh's
# OUT, STAMP, WORK, DB, TOOLS_DB, DBOS_DB and calc). PGSS=1 turns it on; the server must have
# pg_stat_statements loaded (shared_preload_libraries), so a private cluster of one's own: the
# shared server's counters are everybody's, and resetting them is not ours to do.
#
# Around each measured checkout and DBOS phase (from the moment the load is released to the moment
# it has ended, nothing under way at either end): pg_stat_statements reset, then read per database
# (the node's, the tool server's, the DBOS peer's) and divided by the phase's operations; the tables'
# counters (pg_stat_user_tables, read in each database before and after: updates and how many were
# HOT, scans, dead tuples) and the WAL written (pg_current_wal_lsn, the whole cluster) the same way.
# Counts, not times: calls, rows, blocks and WAL records do not depend on the machine's load (the
# exec times do, and are given only beside them). Written to bench/results/pgss-STAMP-PHASE-ROUND.md.
#
# Settings (environment): PGSS=0|1, PGSS_TOP=25 (statements listed per database)

PGSS=${PGSS:-0}; PGSS_TOP=${PGSS_TOP:-25}

pgss_on() { [ "$PGSS" = 1 ]; }

pgss_check() {
  pgss_on || return 0
  psql -q -d postgres -c 'CREATE EXTENSION IF NOT EXISTS pg_stat_statements' >/dev/null \
    || fail "PGSS=1 needs pg_stat_statements in shared_preload_libraries of the server at $PGHOST:$PGPORT"
  psql -Atq -d postgres -c 'SELECT count(*) FROM pg_stat_statements' >/dev/null \
    || fail "PGSS=1: pg_stat_statements is not loaded by the server at $PGHOST:$PGPORT (shared_preload_libraries)"
}

pgss_tables() { # $1: database; one line per table: name and its counters
  psql -Atq -F ' ' -d "$1" -c "SELECT relname, n_tup_ins, n_tup_upd, n_tup_hot_upd, n_tup_del, seq_scan, coalesce(seq_tup_read, 0),
      coalesce(idx_scan, 0), n_dead_tup, n_live_tup FROM pg_stat_user_tables ORDER BY relname"
}

pgss_begin() { # $@: the databases the phase writes to
  pgss_on || return 0
  local db
  # the tables' counters are published by each backend when it goes idle (as the commit counts are,
  # see run.sh): read after the SETTLE both sides
  for db in "$@"; do pgss_tables "$db" >"$WORK/pgss-tables-$db"; done
  PGSS_LSN=$(psql -Atq -d postgres -c 'SELECT pg_current_wal_lsn()')
  psql -Atq -d postgres -c 'SELECT pg_stat_statements_reset()' >/dev/null
}

pgss_statements() { # $1: phase label, $2: operations; the statements, read right after the load ended
  pgss_on || return 0
  local lsn
  lsn=$(psql -Atq -d postgres -c 'SELECT pg_current_wal_lsn()')
  psql -Atq -d postgres -c "SELECT pg_wal_lsn_diff('$lsn', '$PGSS_LSN')" >"$WORK/pgss-wal"
  psql -q -d postgres -P pager=off -F ' | ' -A -c "
    SELECT d.datname AS db, sum(s.calls) AS calls, sum(s.plans) AS plans,
           round(sum(s.total_exec_time + s.total_plan_time)::numeric, 1) AS ms,
           sum(s.rows) AS rows, sum(s.shared_blks_hit) AS hit, sum(s.shared_blks_read) AS read,
           sum(s.shared_blks_dirtied) AS dirtied, sum(s.shared_blks_written) AS written,
           sum(s.wal_records) AS wal_records, sum(s.wal_fpi) AS wal_fpi, sum(s.wal_bytes) AS wal_bytes
    FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid GROUP BY d.datname ORDER BY 1" >"$WORK/pgss-sums"
  psql -q -d postgres -P pager=off -F ' | ' -A -c "
    WITH s AS (
      SELECT d.datname AS db, s.*, row_number() OVER (PARTITION BY d.datname ORDER BY s.total_exec_time + s.total_plan_time DESC) AS rank
      FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid)
    SELECT db, round(calls / $2::numeric, 2) AS calls, round(plans / $2::numeric, 2) AS plans,
           round(((total_exec_time + total_plan_time) / $2 * 1000)::numeric) AS us,
           round((total_plan_time / $2 * 1000)::numeric) AS plan_us,
           round((mean_exec_time * 1000)::numeric) AS mean_us,
           round(rows / $2::numeric, 2) AS rows, round(shared_blks_hit / $2::numeric, 1) AS hit,
           round(shared_blks_read / $2::numeric, 2) AS read, round(shared_blks_dirtied / $2::numeric, 2) AS dirtied,
           round(shared_blks_written / $2::numeric, 2) AS written,
           round(wal_records / $2::numeric, 2) AS wal_rec, round(wal_bytes / $2::numeric) AS wal_bytes,
           left(regexp_replace(query, '\s+', ' ', 'g'), 140) AS query
    FROM s WHERE rank <= $PGSS_TOP ORDER BY db, rank" >"$WORK/pgss-top"
}

pgss_end() { # $1: phase label, $2: operations, $@ (from 3): the databases; after the SETTLE
  pgss_on || return 0
  local label=$1 ops=$2 db file wal
  shift 2
  file="$OUT/pgss-$STAMP-$label.md"
  wal=$(cat "$WORK/pgss-wal")
  {
    echo "# pg_stat_statements, $label, $ops operations ($STAMP)"
    echo
    echo "WAL written (the whole cluster): $(calc "$wal / $ops" 0) bytes per operation."
    echo
    echo "Totals per database over the phase (not per operation):"
    echo
    cat "$WORK/pgss-sums"
    echo
    echo "Per operation, the top $PGSS_TOP statements of each database by time (µs: exec + plan time, load-dependent; plan_us the planning's part):"
    echo
    cat "$WORK/pgss-top"
    for db in "$@"; do
      echo
      echo "Tables of $db, per operation: inserted, updated (of which HOT), deleted, seq scans (tuples read), index scans; dead tuples at the end"
      echo
      pgss_tables "$db" | awk -v ops="$ops" 'NR == FNR {for (i = 2; i <= NF; i++) b[$1, i] = $i; next}
        {d = 0; for (i = 2; i <= 8; i++) { v[i] = ($i - b[$1, i]) / ops; if (v[i] != 0) d = 1 }
         if (d) printf "%s | ins %.2f | upd %.2f (hot %.2f) | del %.2f | seq %.2f (%.1f tuples) | idx %.2f | dead %d live %d\n",
           $1, v[2], v[3], v[4], v[5], v[6], v[7], v[8], $9, $10}' "$WORK/pgss-tables-$db" -
    done
  } >"$file"
  echo "bench/checkout: pg_stat_statements of $label in $file" >&2
}
