#!/usr/bin/env bash
# Installs code-server (the real VS Code 1.100 server and node extension host) and
# puppeteer-core from the npm registry, for editors/run.py vscode. Nothing is downloaded from
# outside the registries: native modules are built from source against node's headers.
# Needs: node 20 with its headers (/usr/include/node), gcc/make/python3, Debian's chromium
# and ripgrep (apt-get install -y chromium ripgrep).
# usage: editors/vscode/setup-code-server.sh [DIR]   (default: .cache/code-server)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
DIR=${1:-$ROOT/.cache/code-server}
CODE_SERVER_VERSION=4.100.3   # the newest code-server that runs on node 20 (VS Code 1.100.3)
PUPPETEER_VERSION=24.43.1
if [ -f "$DIR/.ready-$CODE_SERVER_VERSION" ]; then echo "code-server $CODE_SERVER_VERSION ready in $DIR"; exit 0; fi
rm -rf "$DIR"; mkdir -p "$DIR"; cd "$DIR"
printf '{"name":"vllm-config-e2e","private":true}\n' > package.json
export npm_config_nodedir=${npm_config_nodedir:-/usr}   # node-gyp: local headers, no download
export PUPPETEER_SKIP_DOWNLOAD=1
NPM=(npm --no-audit --no-fund --loglevel=error)
"${NPM[@]}" install --ignore-scripts "code-server@$CODE_SERVER_VERSION" "puppeteer-core@$PUPPETEER_VERSION"
"${NPM[@]}" rebuild argon2
cd node_modules/code-server/lib/vscode
"${NPM[@]}" install --omit=dev --ignore-scripts
# node-pty's install script ends with a dev-only step that fails (npx node-gyp) after
# pty.node is built; the loop below checks that every module we need was built.
"${NPM[@]}" rebuild node-pty @vscode/spdlog native-watchdog @vscode/deviceid || true
for m in node-pty/build/Release/pty.node @vscode/spdlog/build/Release/spdlog.node \
         native-watchdog/build/Release/watchdog.node; do
  test -f "node_modules/$m" || { echo "not built: $m" >&2; exit 1; }
done
mkdir -p node_modules/@vscode/ripgrep/bin && cp "$(command -v rg)" node_modules/@vscode/ripgrep/bin/rg
# what code-server's own postinstall.sh does
ln -sfn node_modules node_modules.asar
(cd bin/remote-cli && ln -sfn code-linux.sh code-server)
(cd bin/helpers && ln -sfn browser-linux.sh browser.sh)
(cd extensions && "${NPM[@]}" install --omit=dev --ignore-scripts)
touch "$DIR/.ready-$CODE_SERVER_VERSION"
echo "code-server $CODE_SERVER_VERSION ready in $DIR"
