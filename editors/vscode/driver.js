// Drives code-server's real VS Code workbench in Debian's chromium (puppeteer-core) and runs
// an extension test suite in its node extension host, through VS Code's own test hooks
// (extensionDevelopmentPath / extensionTestsPath in the `payload` URL parameter, and the
// codeAutomationExit callback). The exit status is the suite's.
// usage: node driver.js SERVER_URL WORKSPACE_DIR RUNNER_EXTENSION_DIR SUITE_JS
// env: E2E_TIMEOUT_MS, E2E_CHROMIUM, E2E_PROFILE (chromium profile dir),
//      VLLM_E2E_SCREENSHOT (the suite asks for it by logging E2E-SCREENSHOT-NOW; the driver
//      answers by creating SCREENSHOT.done)
// What the extension API cannot do or see (notifications and their buttons, quick picks,
// the settings editor, webviews) the suite asks the driver for, as a user would do it: it
// logs `E2E-ACT <n> <json>`, a list of steps ({type: 'keys', text}, {type: 'press', key},
// {type: 'click', selector, text}, {type: 'wait', ms}, {type: 'screenshot', name}: saved
// beside SCREENSHOT as SCREENSHOT-<name>.png), and the driver performs them in the
// page and answers with SCREENSHOT.act-<n>.json: {ok, error, dom} (dom: see `snapshot`).
const fs = require('fs');
const puppeteer = require('puppeteer-core');

const [serverUrl, workspace, runner, suite] = process.argv.slice(2);
const TIMEOUT = +(process.env.E2E_TIMEOUT_MS || 180000);
const SHOT = process.env.VLLM_E2E_SCREENSHOT;

/** What the workbench shows (run in the page). */
function workbench() {
  const all = (selector, root = document) => [...root.querySelectorAll(selector)];
  const text = (el) => (el ? el.innerText.trim() : null);
  const quick = document.querySelector('.quick-input-widget');
  return {
    notifications: all('.notifications-toasts .notification-list-item').map((item) => ({
      message: text(item.querySelector('.notification-list-item-message')),
      buttons: all('.monaco-button', item).map(text),
    })),
    quickInput: {
      visible: !!quick && quick.style.display !== 'none',
      placeholder: quick ? quick.querySelector('input')?.getAttribute('placeholder') : null,
      rows: quick ? all('.quick-input-list .monaco-list-row', quick).map((row) => row.getAttribute('aria-label')) : [],
    },
    settings: {
      tabs: all('.settings-editor .settings-tabs-widget .action-label').map((el) => ({ label: text(el), checked: el.classList.contains('checked') })),
      query: text(document.querySelector('.settings-editor .settings-header .search-container .view-lines')),
    },
    activeTab: document.querySelector('.tabs-container .tab.active')?.getAttribute('aria-label') ?? null,
    // the suggest widget of the focused editor: open by itself while a flag is typed?
    suggest: (() => {
      const widget = [...document.querySelectorAll('.editor-widget.suggest-widget')].find((w) => w.classList.contains('visible'));
      return { visible: !!widget, rows: widget ? all('.monaco-list-row', widget).map((row) => row.getAttribute('aria-label')) : [] };
    })(),
  };
}

async function snapshot(page) {
  const dom = await page.evaluate(workbench);
  dom.frames = [];
  for (const frame of page.frames()) {
    if (frame === page.mainFrame()) continue;
    // A webview reloads while it is read: puppeteer throws (synchronously, not as a rejected
    // promise) for a frame detached in between, and the next poll reads its replacement.
    let body = '';
    try {
      body = await frame.evaluate(() => (document.body ? document.body.innerText.trim().slice(0, 400) : ''));
    } catch {
      continue;
    }
    if (body) dom.frames.push(body);
  }
  return dom;
}

async function act(page, steps) {
  for (const step of steps) {
    if (step.type === 'keys') await page.keyboard.type(step.text, { delay: 20 });
    else if (step.type === 'press') await page.keyboard.press(step.key);
    else if (step.type === 'wait') await new Promise((resolve) => setTimeout(resolve, step.ms));
    else if (step.type === 'screenshot') await page.screenshot({ path: SHOT.replace(/\.png$/, `-${step.name}.png`) });
    else if (step.type === 'click') {
      const handle = await page.evaluateHandle(
        (selector, wanted) => [...document.querySelectorAll(selector)].find((el) => el.innerText.trim() === wanted) ?? null,
        step.selector,
        step.text,
      );
      const element = handle.asElement();
      if (!element) throw new Error(`nothing to click: ${step.selector} "${step.text}"`);
      await element.click();
    } else throw new Error(`unknown step ${JSON.stringify(step)}`);
  }
  return snapshot(page);
}

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
  const answered = new Set();
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
    const asked = /E2E-ACT (\d+) (.*)$/.exec(text);
    if (SHOT && asked && !answered.has(asked[1])) {
      answered.add(asked[1]); // a message can reach the page console twice
      const answer = { ok: true, error: null, dom: null };
      try {
        answer.dom = await act(page, JSON.parse(asked[2]));
      } catch (error) {
        Object.assign(answer, { ok: false, error: String(error) });
        answer.dom = await snapshot(page).catch(() => null);
      }
      fs.writeFileSync(`${SHOT}.act-${asked[1]}.tmp`, JSON.stringify(answer));
      fs.renameSync(`${SHOT}.act-${asked[1]}.tmp`, `${SHOT}.act-${asked[1]}.json`); // whole, when the suite sees it
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
