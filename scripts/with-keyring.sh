#!/usr/bin/env bash
# Runs a command inside a private D-Bus session with an unlocked gnome-keyring, so keychain
# tests talk to a real Secret Service. The keyring lives in a throw-away folder.
set -euo pipefail

if [ -z "${RAG_KEYRING_INNER:-}" ]; then
  exec env RAG_KEYRING_INNER=1 dbus-run-session -- bash "$0" "$@"
fi

keyring_home=$(mktemp -d)
trap 'rm -rf "$keyring_home"' EXIT
export XDG_DATA_HOME="$keyring_home/data"
export XDG_RUNTIME_DIR="$keyring_home/run"
mkdir -p "$XDG_DATA_HOME" "$XDG_RUNTIME_DIR"
chmod 700 "$XDG_RUNTIME_DIR"

eval "$(printf 'rag-console-test' | gnome-keyring-daemon --unlock --components=secrets)"
export GNOME_KEYRING_CONTROL

# Wait until the daemon owns org.freedesktop.secrets; calling earlier makes D-Bus activate a
# second, locked daemon.
for _ in $(seq 1 100); do
  if dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
    org.freedesktop.DBus.NameHasOwner string:org.freedesktop.secrets 2>/dev/null | grep -q 'boolean true'; then
    export RAG_KEYRING_READY=1
    break
  fi
  sleep 0.1
done
if [ -z "${RAG_KEYRING_READY:-}" ]; then
  echo "with-keyring: org.freedesktop.secrets never appeared on the session bus" >&2
fi

set +e
"$@"
status=$?
kill "${GNOME_KEYRING_PID:-}" 2>/dev/null || true
exit $status
