#!/usr/bin/env bash
# Builds the two local base images the container tests run on, each only when it is missing, from
# Debian's own packages (no image registry is needed):
#   local/debian:bookworm  debootstrap --variant=minbase from this host's Debian mirror, imported
#   local/jre:17           openjdk-17-jre-headless on it (jre/Dockerfile)
# Needs root (debootstrap) and the debootstrap package; the docker CLI must reach an engine.
# Image names can be changed with SLUICE_DEBIAN_IMAGE and SLUICE_JRE_IMAGE.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
debian_image=${SLUICE_DEBIAN_IMAGE:-local/debian:bookworm}
jre_image=${SLUICE_JRE_IMAGE:-local/jre:17}

has_image() {
  docker image inspect "$1" > /dev/null 2>&1
}

# The Debian archive this host installs from: the first URI serving bookworm, in deb822
# (*.sources) or one-line (*.list) form; Debian's redirector when none is found.
debian_mirror() {
  local f
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -e "$f" ] || continue
    awk '/^URIs:/ { uri = $2 } /^Suites:/ && / bookworm( |$)/ { print uri; exit }' "$f"
  done
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [ -e "$f" ] || continue
    awk '$1 == "deb" { for (i = 2; i < NF; i++) if ($i !~ /^\[/ && $i !~ /=/ && $(i + 1) == "bookworm") { print $i; exit } }' "$f"
  done
  echo http://deb.debian.org/debian
}

if has_image "$debian_image"; then
  echo "base-images: $debian_image present"
else
  if [ "$(id -u)" != 0 ] || ! command -v debootstrap > /dev/null; then
    echo "base-images: building $debian_image needs root and debootstrap (apt-get install -y debootstrap)" >&2
    exit 1
  fi
  mirrors=$(debian_mirror)
  mirror=${mirrors%%$'\n'*}
  echo "base-images: building $debian_image from $mirror"
  rootfs=$(mktemp -d "${TMPDIR:-/tmp}/sluice-rootfs-XXXXXX")
  trap 'rm -rf "$rootfs"' EXIT
  debootstrap --variant=minbase bookworm "$rootfs" "$mirror" > "$rootfs.log" 2>&1 \
    || { tail -n 30 "$rootfs.log" >&2; rm -f "$rootfs.log"; exit 1; }
  rm -f "$rootfs.log"
  # The host's sources naming that mirror (its suites, security archive and keyrings) carry over,
  # so the image installs what the host would; other vendors' lists stay behind.
  copied=0
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.sources /etc/apt/sources.list.d/*.list; do
    if [ -e "$f" ] && grep -qF "$mirror" "$f"; then
      cp "$f" "$rootfs/etc/apt/sources.list.d/$(basename "$f" | sed 's/^sources\.list$/host.list/')"
      copied=1
    fi
  done
  if [ "$copied" = 1 ]; then
    rm -f "$rootfs/etc/apt/sources.list"
  fi
  rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/*
  tar -C "$rootfs" -c . | docker import --change 'CMD ["/bin/bash"]' - "$debian_image" > /dev/null
  rm -rf "$rootfs"
  trap - EXIT
fi

if has_image "$jre_image"; then
  echo "base-images: $jre_image present"
else
  echo "base-images: building $jre_image on $debian_image"
  DOCKER_BUILDKIT=0 docker build -q -t "$jre_image" --build-arg BASE_IMAGE="$debian_image" "$here/jre" > /dev/null
fi
