#!/usr/bin/env bash
# Installs Debian's Chromium and its driver for the browser test (tests/browser/), when
# /usr/bin/chromium is missing. Needs root or password-less sudo and Debian's package registry.
# Never fails the build: when Chromium cannot be installed it says why and exits 0; the browser
# test then skips with that reason (written to $BROWSER_SKIP_FILE when set).
set -uo pipefail

CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
SKIP_FILE=${BROWSER_SKIP_FILE:-}

give_up() {
	echo "install_chromium: $1; the browser test will be skipped" >&2
	if [ -n "$SKIP_FILE" ]; then
		mkdir -p "$(dirname "$SKIP_FILE")"
		echo "$1" >"$SKIP_FILE"
	fi
	exit 0
}

if [ -n "$SKIP_FILE" ]; then rm -f "$SKIP_FILE"; fi

if [ -x "$CHROMIUM" ]; then
	echo "install_chromium: $CHROMIUM present ($("$CHROMIUM" --version 2>/dev/null || echo 'version unknown'))"
	exit 0
fi

if [ "$(id -u)" -eq 0 ]; then
	SUDO=()
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
	SUDO=(sudo -n)
else
	give_up "$CHROMIUM is missing and installing it needs root or password-less sudo"
fi

command -v apt-get >/dev/null 2>&1 || give_up "$CHROMIUM is missing and apt-get is not available (not Debian)"

export DEBIAN_FRONTEND=noninteractive
echo "install_chromium: apt-get install chromium chromium-driver"
"${SUDO[@]}" apt-get update -q >/dev/null || give_up "apt-get update failed"
"${SUDO[@]}" apt-get install -y -q --no-install-recommends chromium chromium-driver >/dev/null \
	|| give_up "apt-get install chromium chromium-driver failed"
[ -x "$CHROMIUM" ] || give_up "apt-get installed chromium but $CHROMIUM is missing"
echo "install_chromium: installed $("$CHROMIUM" --version 2>/dev/null)"
