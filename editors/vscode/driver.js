// Drives code-server's real VS Code workbench in Debian's chromium (puppeteer-core) and runs
// an extension test suite in its node extension host, through VS Code's own test hooks
// (extensionDevelopmentPath / extensionTestsPath in the `payload` URL parameter, and the
// codeAutomationExit callback). The exit status is the suite's.
// usage: node driver.js SERVER_URL WORKSPACE_DIR RUNNER_EXTENSION_DIR SUITE_JS
// env: E2E_TIMEOUT_MS, E2E_CHROMIUM, E2E_PROFILE (chromium profile dir),
//      VLLM_E2E_SCREENSHOT (the suite asks for it by logging E2E-SCREENSHOT-NOW; the driver
//      answers by creating SCREENSHOT.done)
const fs = require('fs');
const puppeteer = require('puppeteer-core');

const [serverUrl, workspace, runner, suite] = process.argv.slice(2);
const TIMEOUT = +(process.env.E2E_TIMEOUT_MS || 180000);
const SHOT = process.env.VLLM_E2E_SCREENSHOT;

(async () => {
  const host = new URL(serverUrl).host;
  const remote = (p) => `vscode-remote://${host}${p}`;
  const payload = [
    ['extensionDevelopmentPath', remote(runner)],
    ['extensionTestsPath', remote(suite)],
    ['skipWelcome', 'true'],
    ['skipReleaseNotes', 'true'],
  ];
  const url = `${serverUrl}/?folder=${encodeURIComponent(workspace)}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
  const browser = await puppeteer.launch({
    executablePath: process.env.E2E_CHROMIUM || '/usr/bin/chromium',
    headless: true,
    userDataDir: process.env.E2E_PROFILE,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run'],
  });
  let finished = false;
  const finish = async (code) => {
    if (finished) return;
    finished = true;
    clearTimeout(timer);
    await browser.close().catch(() => {});
    process.exit(code);
  };
  const timer = setTimeout(() => {
    console.error(`E2E TIMEOUT after ${TIMEOUT} ms`);
    void finish(124);
  }, TIMEOUT);
  for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => void finish(130));
  const page = await browser.newPage();
  await page.setViewport({ width: 1280, height: 720, deviceScaleFactor: 1 });
  page.on('console', async (message) => {
    const text = message.text();
    console.log('[browser]', message.type(), text.slice(0, 600));
    if (SHOT && text.includes('E2E-SCREENSHOT-NOW')) {
      try {
        await page.screenshot({ path: SHOT });
        console.log('screenshot saved to', SHOT);
      } catch (error) {
        console.log('screenshot failed', error);
      }
      fs.writeFileSync(`${SHOT}.done`, '');
    }
  });
  page.on('pageerror', (error) => console.log('[pageerror]', String(error).slice(0, 600)));
  await page.exposeFunction('codeAutomationLog', (type, args) => console.log('[ext-host]', type, JSON.stringify(args).slice(0, 600)));
  await page.exposeFunction('codeAutomationExit', async (code) => {
    console.log('codeAutomationExit', code);
    await finish(code);
  });
  console.log('opening', url);
  await page.goto(url);
})().catch((error) => {
  console.error(error);
  process.exit(2);
});
