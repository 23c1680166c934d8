kill_leftover_children() {
  # A test JVM that was killed cannot stop its children (Pulsar brokers, Kafka nodes, Redis
  # servers, sluice.jar); each left a PID file here, as the testkit's Orphans does on every start.
  if [ -d "$pid_files_dir" ]; then
    for f in "$pid_files_dir"/*.pid; do
      [ -e "$f" ] || continue
      # Each file holds "<child pid> <owning test JVM pid> <scratch dir or -> <marker>".
      read -r pid owner dir marker < "$f" || true
      if [ -n "${owner:-}" ] && kill -0 "$owner" 2>/dev/null; then
        continue
      fi
      # Only a process whose command line still holds its marker: the PID may have been reused.
      if [ -n "${pid:-}" ] && [ -n "${marker:-}" ] && [ -r "/proc/$pid/cmdline" ] \
          && tr '\0' ' ' < "/proc/$pid/cmdline" | grep -qF -- "$marker"; then
        echo "ci: killing leftover child pid $pid ($marker)"
        kill -KILL "$pid" 2>/dev/null
      fi
      # Only a scratch directory the testkit made: sluice-* directly in the temp directory.
      case "${dir:-}" in
        "${TMPDIR:-/tmp}"/sluice-*) [[ "${dir#"${TMPDIR:-/tmp}"/}" == */* ]] || rm -rf -- "$dir" ;;
      esac
      rm -f -- "$f"
    done
  fi
}
