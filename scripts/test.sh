#!/usr/bin/env bash
# `npm test`: lint, typecheck, SDK build, vitest, Playwright. Every step runs even when an earlier one
# fails (so the test counts are complete); the exit code is non-zero if any step failed.
# Results: .tmp/vitest.json and .tmp/playwright.json (read by .ci/run).
set -euo pipefail
cd "$(dirname "$0")/.."

# Without the system packages nothing below can pass: stop here with the installer's message.
bash scripts/ensure-system-deps.sh

mkdir -p .tmp
rm -f .tmp/vitest.json .tmp/playwright.json

failed=()
step() {
  local name="$1"
  shift
  echo
  echo "▶ ${name}"
  local start=$SECONDS
  if "$@"; then
    echo "✔ ${name} ($((SECONDS - start)) s)"
    return 0
  fi
  echo "✘ ${name} failed ($((SECONDS - start)) s)"
  failed+=("${name}")
  return 1
}

step lint npm run --silent lint || true
step typecheck npm run --silent typecheck || true
if step build:sdk npm run --silent build:sdk; then
  # The e2e server would otherwise build the SDK a second time.
  export VIGIA_E2E_SKIP_BUILD=1
fi
step vitest npx vitest run || true

if [ -d e2e ] && [ -n "$(find e2e -type f \( -name '*.spec.ts' -o -name '*.test.ts' \) -print -quit)" ]; then
  step playwright npx playwright test || true
else
  echo
  echo "▷ playwright: no specs in e2e/, skipped"
fi

echo
if [ ${#failed[@]} -gt 0 ]; then
  echo "npm test: FAILED steps: ${failed[*]}"
  exit 1
fi
echo "npm test: all steps passed"
