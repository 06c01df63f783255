#!/usr/bin/env bash
# Makes sure the system packages the tests need are present:
#   postgresql  the PostgreSQL server (initdb, pg_ctl, postgres) for the PostgreSQL test suites
#   chromium    Debian's Chromium at /usr/bin/chromium, driven by Playwright for the e2e tests
#   the efficacy lab's engines and drivers (test/efficacy, npm run bench -- efficacy):
#   chromium-driver (chromedriver), firefox-esr, webkit2gtk-driver (WebKitWebDriver; its libwebkit2gtk-4.1-0
#   brings MiniBrowser), xvfb and xauth (the headful rows' display), xdotool (the buyers' keyboard and mouse)
# As root with apt-get, installs what is missing; otherwise names the packages and fails.
# Quiet when everything is there.
set -euo pipefail

missing=()
if ! compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null; then
  missing+=(postgresql)
fi
# binary → the Debian package that installs it
declare -A binaries=(
  [/usr/bin/chromium]=chromium
  [/usr/bin/chromedriver]=chromium-driver
  [/usr/bin/firefox-esr]=firefox-esr
  [/usr/bin/WebKitWebDriver]=webkit2gtk-driver
  [/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser]=libwebkit2gtk-4.1-0
  [/usr/bin/Xvfb]=xvfb
  [/usr/bin/xauth]=xauth
  [/usr/bin/xdotool]=xdotool
)
for binary in "${!binaries[@]}"; do
  if [ ! -x "$binary" ]; then
    missing+=("${binaries[$binary]}")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "ensure-system-deps: installing ${missing[*]} with apt-get…" >&2
  export DEBIAN_FRONTEND=noninteractive
  if ! { apt-get update -qq && apt-get install -y -qq --no-install-recommends "${missing[@]}"; } >&2; then
    echo "ensure-system-deps: apt-get could not install: ${missing[*]}" >&2
    exit 1
  fi
  # The postgresql package may create and start a cluster on port 5432; the tests don't use it
  # (they start their own server on a free port), so it is left as the package set it up.
  exit 0
fi

{
  echo "ensure-system-deps: missing system packages: ${missing[*]}"
  echo "  The tests need Debian's PostgreSQL server, Chromium (+ chromedriver), Firefox ESR, WebKitGTK's"
  echo "  WebKitWebDriver and MiniBrowser, Xvfb and xdotool."
  echo "  Install them as root, then run the tests again:"
  echo "    sudo apt-get update && sudo apt-get install -y --no-install-recommends ${missing[*]}"
} >&2
exit 1
