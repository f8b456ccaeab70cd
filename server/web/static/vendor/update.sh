#!/usr/bin/env bash
# Re-vendor the chat page's browser libraries from npm (see README.md here for why and what).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
tests_vendor="$here/../../../../tests/fixtures/vendor"
MARKDOWN_IT=15.0.3 DOMPURIFY=3.4.18 HIGHLIGHT=11.12.0 AXE=4.14.1
LANGS="python javascript typescript bash shell json yaml xml ini sql dockerfile plaintext css diff"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
(cd "$work" && npm init -y >/dev/null && npm install --no-audit --no-fund --ignore-scripts \
  "markdown-it@$MARKDOWN_IT" "dompurify@$DOMPURIFY" "@highlightjs/cdn-assets@$HIGHLIGHT" "axe-core@$AXE" >/dev/null)
m="$work/node_modules"
strip() { sed '/^\/\/# sourceMappingURL=/d' "$1" > "$2"; }
mkdir -p "$here/markdown-it" "$here/dompurify" "$here/highlight/languages" "$tests_vendor/axe-core"
strip "$m/markdown-it/dist/browser/markdown-it.umd.min.js" "$here/markdown-it/markdown-it.min.js"
cp "$m/markdown-it/LICENSE" "$here/markdown-it/LICENSE"
strip "$m/dompurify/dist/purify.min.js" "$here/dompurify/purify.min.js"
cp "$m/dompurify/LICENSE" "$here/dompurify/LICENSE"
strip "$m/@highlightjs/cdn-assets/es/core.min.js" "$here/highlight/core.min.js"
cp "$m/@highlightjs/cdn-assets/LICENSE" "$here/highlight/LICENSE"
for lang in $LANGS; do
  strip "$m/@highlightjs/cdn-assets/es/languages/$lang.min.js" "$here/highlight/languages/$lang.min.js"
done
cp "$m/axe-core/axe.min.js" "$m/axe-core/LICENSE" "$tests_vendor/axe-core/"
echo "vendored markdown-it $MARKDOWN_IT, dompurify $DOMPURIFY, highlight.js $HIGHLIGHT, axe-core $AXE"
