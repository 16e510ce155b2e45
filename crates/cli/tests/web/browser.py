#!/usr/bin/env python3
"""A headless Chromium driven by Selenium, for the web view's browser tests
(issue 31).

Needs Debian's `chromium`, `chromium-driver` and `python3-selenium`
(scripts/test.sh installs them). Those land in Debian's own Python,
/usr/bin/python3, which is not always the `python3` of PATH (pyenv): run
as a script, this file re-executes itself with /usr/bin/python3 when the
Python running it has no selenium; imported, it must be imported from
/usr/bin/python3.

Three ways to use it:

1. From a Rust test: write a script (JSON) and run
   `python3 crates/cli/tests/web/browser.py SCRIPT.json`. It prints one
   JSON object on stdout and exits 0 when every step ran and no JavaScript
   dialog (alert, confirm, prompt, beforeunload) ever opened; 1 otherwise;
   2 for a malformed script. The script:

     {"download_dir": "/tmp/d",   optional (default: a temporary directory,
                                  removed at the end: downloads are then
                                  reported by name, size and SHA-256 only)
      "lang": "fr",               optional: Accept-Language and UI (default en-US)
      "window": [1280, 900],      optional
      "timeout": 10,              optional: seconds to wait for an element (default 10)
      "allow_dialogs": false,     optional: exit 0 even when a dialog opened
      "ignore_certificate_errors": false,  optional: accept any certificate (a
                                  test's self-signed one; --ignore-certificate-errors)
      "host_resolver_rules": "MAP a.example 127.0.0.1",  optional: names the
                                  browser resolves so (--host-resolver-rules)
      "failure_screenshot": "/tmp/f.png",  optional: taken when a step fails
      "steps": [ {"op": "open", "url": "http://127.0.0.1:8080/"}, ... ]}

   Steps (each returns a value, in "results", in order):
     open url                     -> the URL loaded
     click css                    -> null (waits for the element to be clickable)
     type css text [clear=true]   -> null
     upload css path              -> null (path: a string or a list; an input
                                     hidden by CSS works: strictFileInteractability
                                     is off)
     text css                     -> the element's rendered text
     texts css                    -> the rendered text of every match (a list)
     attribute css name           -> its value (null when absent)
     attributes css name          -> the value on every match (a list)
     count css                    -> how many elements match (no wait)
     wait_for css [text] [timeout] -> its text, once present (and containing text)
     url / title / source         -> the current URL / title / page source
     eval js                      -> execute_script(js)'s value ("return ..." to get one)
     back                         -> null
     sleep seconds                -> null
     viewport width [height=844] [mobile=true] -> null (CDP: a phone's viewport, in CSS px)
     color_scheme scheme          -> null (CDP: prefers-color-scheme 'dark'/'light', '' resets)
     screenshot path [full=false] -> path (PNG; full: the whole page, up to 16384 px high)
     wait_for_download [timeout=30] -> {"path", "name", "size", "sha256"} of the next
                                     download finished in download_dir
     dialogs                      -> every dialog seen so far
     wait_js js [timeout]         -> the first truthy value of execute_script(js), polled
                                     (a step fails when it stays falsy until the timeout)
     throttle [upload] [download] [latency] -> null (CDP Network.emulateNetworkConditions:
                                     octets per second, -1 or absent: not limited; no
                                     argument at all: back to no limit)
     keys keys [css]              -> null (keys sent to the focused element, or to css;
                                     names such as "TAB", "ENTER", "ESCAPE", "SPACE" are
                                     Selenium's Keys; a list is sent in order)
     focused                      -> {"tag", "id", "text", "outline"} of the focused element
     axe [url] [impacts]          -> the axe-core violations of the page (after opening url):
                                     [{"id", "impact", "help", "targets"}], only the impacts
                                     listed when given (e.g. ["serious", "critical"]); axe-core
                                     comes from target/axe (scripts/test.sh), or $AXE_JS
   The output: {"ok", "results", "dialogs": [{"type", "message", "url"}],
   "console": [{"level", "message"}] (the browser console: JS errors, CSP
   violations, failed loads; a missing /favicon.ico shows up here as a
   404), "error" and "failed_step" (index) when a step failed, with
   "page_url" and "page_source" (its first 4000 characters), and
   "versions": {"chromium", "chromedriver", "selenium"}.

2. From Python (/usr/bin/python3):
     sys.path.insert(0, 'crates/cli/tests/web'); from browser import Browser
     with Browser(download_dir=d) as b:
         b.open(url); b.type('input[name=q]', 'x'); b.click('button')
         b.upload('input[type=file]', '/tmp/f'); b.text('#out')
         b.attribute('a', 'href'); b.screenshot('/tmp/s.png')
         path = b.wait_for_download(timeout=30)
         assert b.dialogs() == []     # or b.assert_no_dialogs()

3. `python3 crates/cli/tests/web/browser.py --selftest`: serves a small
   page from http.server on a free loopback port (a form with a file
   upload, downloads by type, by `download` attribute and by
   Content-Disposition with a UTF-8 name, pages calling alert(), confirm()
   from a timer and alert() in an iframe) and checks every helper and both
   interfaces against it. Exits 0 when all pass.

How a dialog is detected: nothing is injected into the page. ChromeDriver
records the Page domain's DevTools events in its performance log
(`goog:loggingPrefs`), and every `Page.javascriptDialogOpening` there is
a dialog, whatever opened it (the page, an iframe, a timer, during the
load or later) and even after it is gone. Dialogs are dismissed as soon as
the next command runs (`unhandledPromptBehavior: dismiss`), so a test never
hangs on one; an alert still open is seen too (switch_to.alert).

Downloads: Chromium's prefs download.default_directory and
download.prompt_for_download=false, Safe Browsing off (it would hold some
types as "dangerous"), and the DevTools command Browser.setDownloadBehavior
(Page.setDownloadBehavior, deprecated, when Browser's is refused) with the
same directory: headless Chromium needs the latter to write downloads at
all in some versions. A download is finished when its file is there
without a .crdownload beside it and its size holds still.
"""
import base64, hashlib, json, os, shutil, sys, tempfile, threading, time

DEBIAN_PYTHON = '/usr/bin/python3'

try:
    import selenium
    from selenium import webdriver
    from selenium.common.exceptions import NoAlertPresentException, WebDriverException
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as EC
    from selenium.webdriver.support.ui import WebDriverWait
except ImportError:
    if (__name__ == '__main__' and os.access(DEBIAN_PYTHON, os.X_OK)
            and os.path.realpath(sys.executable) != os.path.realpath(DEBIAN_PYTHON)
            and not os.environ.get('BROWSER_PY_REEXEC')):
        os.environ['BROWSER_PY_REEXEC'] = '1'
        os.execv(DEBIAN_PYTHON, [DEBIAN_PYTHON, os.path.abspath(__file__), *sys.argv[1:]])
    raise ImportError(f'selenium is missing in {sys.executable} (Debian\'s python3-selenium is for '
                      f'{DEBIAN_PYTHON}; bash scripts/test.sh installs it)')


def _which(env, *names):
    p = os.environ.get(env)
    if p:
        return p
    for n in names:
        found = shutil.which(n)
        if found:
            return found
    raise FileNotFoundError(f'none of {names} on PATH (Debian: chromium, chromium-driver); or set {env}')


class Browser:
    """A headless Chromium session. `timeout`: seconds to wait for an
    element to appear (and for a page to load: 4x that)."""

    def __init__(self, download_dir=None, lang='en-US', window=(1280, 900), timeout=10.0, headless=True,
                 ignore_certificate_errors=False, host_resolver_rules=None):
        self.timeout = timeout
        self._tmp = tempfile.mkdtemp(prefix='babelftp-browser-')
        self.download_dir = os.path.abspath(download_dir) if download_dir else os.path.join(self._tmp, 'downloads')
        os.makedirs(self.download_dir, exist_ok=True)
        self._dialogs, self._console, self._downloads_seen = [], [], set()
        self._lock = threading.Lock()
        o = webdriver.ChromeOptions()
        o.binary_location = _which('CHROMIUM', 'chromium', 'chromium-browser')
        for a in ([f'--headless=new'] if headless else []) + [
                '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', f'--user-data-dir={self._tmp}/profile',
                f'--window-size={window[0]},{window[1]}', f'--lang={lang}', '--no-first-run',
                '--no-default-browser-check', '--disable-extensions', '--disable-background-networking',
                '--disable-component-update', '--disable-sync', '--password-store=basic',
                '--disable-breakpad', '--disable-crash-reporter']:
            o.add_argument(a)
        if ignore_certificate_errors:
            # A test server's self-signed certificate (HTTPS, and so HTTP/2).
            o.add_argument('--ignore-certificate-errors')
            o.accept_insecure_certs = True
        if host_resolver_rules:
            o.add_argument(f'--host-resolver-rules={host_resolver_rules}')
        o.add_experimental_option('prefs', {
            'download.default_directory': self.download_dir,
            'download.prompt_for_download': False,
            'download.directory_upgrade': True,
            'safebrowsing.enabled': False,
            'profile.default_content_setting_values.automatic_downloads': 1,
            'intl.accept_languages': lang,
        })
        o.add_experimental_option('perfLoggingPrefs', {'enableNetwork': False, 'enablePage': True})
        o.set_capability('goog:loggingPrefs', {'performance': 'ALL', 'browser': 'ALL'})
        o.set_capability('unhandledPromptBehavior', 'dismiss')
        # A HOME of its own: Chromium writes ~/.config/chromium/Crash Reports
        # and GTK ~/.cache/dconf whatever --user-data-dir says (and
        # downloads go to ~/Downloads when nothing else is set).
        home = os.path.join(self._tmp, 'home')
        os.makedirs(home)
        env = dict(os.environ, HOME=home, XDG_CONFIG_HOME=os.path.join(home, '.config'),
                   XDG_CACHE_HOME=os.path.join(home, '.cache'), XDG_DATA_HOME=os.path.join(home, '.local', 'share'))
        self._service = Service(executable_path=_which('CHROMEDRIVER', 'chromedriver'),
                                log_path=os.path.join(self._tmp, 'chromedriver.log'), env=env)
        try:
            self.driver = webdriver.Chrome(service=self._service, options=o)
        except Exception:
            shutil.rmtree(self._tmp, ignore_errors=True)
            raise
        self.driver.set_page_load_timeout(max(30.0, 4 * timeout))
        self.download_via = None
        for cmd, params in (('Browser.setDownloadBehavior', {'behavior': 'allow', 'downloadPath': self.download_dir}),
                            ('Page.setDownloadBehavior', {'behavior': 'allow', 'downloadPath': self.download_dir})):
            try:
                self.driver.execute_cdp_cmd(cmd, params)
                self.download_via = cmd
                break
            except WebDriverException:
                continue

    # ------------------------------------------------------------ lifecycle
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.quit()

    def quit(self):
        try:
            self._drain()
        except Exception:  # noqa: BLE001 - the browser may be gone already
            pass
        try:
            self.driver.quit()
        finally:
            shutil.rmtree(self._tmp, ignore_errors=True)

    def versions(self):
        caps = self.driver.capabilities
        return {'chromium': caps.get('browserVersion'),
                'chromedriver': caps.get('chrome', {}).get('chromedriverVersion', '').split(' ')[0],
                'selenium': selenium.__version__}

    # -------------------------------------------------------------- dialogs
    def _drain(self):
        """Moves what ChromeDriver logged since last time into our lists."""
        try:
            alert = self.driver.switch_to.alert
            self._dialogs.append({'type': 'open', 'message': alert.text, 'url': self.driver.current_url})
            alert.dismiss()
        except NoAlertPresentException:
            pass
        for e in self.driver.get_log('performance'):
            try:
                m = json.loads(e['message'])['message']
            except (KeyError, ValueError):
                continue
            if m.get('method') == 'Page.javascriptDialogOpening':
                p = m.get('params', {})
                d = {'type': p.get('type'), 'message': p.get('message'), 'url': p.get('url')}
                # The open alert met above is the same dialog: keep the event.
                if self._dialogs and self._dialogs[-1]['type'] == 'open' and self._dialogs[-1]['message'] == d['message']:
                    self._dialogs[-1] = d
                else:
                    self._dialogs.append(d)
        for e in self.driver.get_log('browser'):
            self._console.append({'level': e.get('level'), 'message': e.get('message')})

    def dialogs(self):
        """Every JavaScript dialog opened so far: [{type, message, url}]."""
        self._drain()
        return list(self._dialogs)

    def assert_no_dialogs(self):
        d = self.dialogs()
        assert not d, f'JavaScript dialogs opened: {d}'

    def console(self):
        """The browser console so far: [{level, message}]."""
        self._drain()
        return list(self._console)

    # ---------------------------------------------------------------- pages
    def _find(self, css, clickable=False, timeout=None):
        cond = EC.element_to_be_clickable if clickable else EC.presence_of_element_located
        return WebDriverWait(self.driver, self.timeout if timeout is None else timeout).until(
            cond((By.CSS_SELECTOR, css)), message=f'no element {"clickable " if clickable else ""}matches {css!r}')

    def open(self, url):
        self.driver.get(url)
        return self.driver.current_url

    def click(self, css):
        self._find(css, clickable=True).click()

    def type(self, css, text, clear=True):
        el = self._find(css)
        if clear:
            el.clear()
        el.send_keys(text)

    def upload(self, css, path):
        paths = [path] if isinstance(path, str) else list(path)
        self._find(css).send_keys('\n'.join(os.path.abspath(p) for p in paths))

    def text(self, css):
        return self._find(css).text

    def texts(self, css):
        return [e.text for e in self.driver.find_elements(By.CSS_SELECTOR, css)]

    def attribute(self, css, name):
        return self._find(css).get_attribute(name)

    def attributes(self, css, name):
        return [e.get_attribute(name) for e in self.driver.find_elements(By.CSS_SELECTOR, css)]

    def count(self, css):
        return len(self.driver.find_elements(By.CSS_SELECTOR, css))

    def wait_for(self, css, text=None, timeout=None):
        t = self.timeout if timeout is None else timeout
        if text is None:
            return self._find(css, timeout=t).text
        # The page may be between two documents (a form's navigation) or
        # have its element swapped (the upload list's refresh of #listing)
        # while it is looked at: Chromium then answers "node does not
        # belong to the document", which is asked again until the timeout.
        WebDriverWait(self.driver, t, ignored_exceptions=(WebDriverException,)).until(
            EC.text_to_be_present_in_element((By.CSS_SELECTOR, css), text),
            message=f'{css!r} never contained {text!r}')
        # (a one-element list: an empty text is an answer too)
        return WebDriverWait(self.driver, t, ignored_exceptions=(WebDriverException,)).until(
            lambda d: [d.find_element(By.CSS_SELECTOR, css).text], message=f'{css!r} went away')[0]

    def url(self):
        return self.driver.current_url

    def title(self):
        return self.driver.title

    def source(self):
        return self.driver.page_source

    def eval(self, js, *args):
        return self.driver.execute_script(js, *args)

    def back(self):
        self.driver.back()

    def wait_js(self, js, timeout=None):
        t = self.timeout if timeout is None else timeout
        return WebDriverWait(self.driver, t, poll_frequency=0.05).until(
            lambda d: d.execute_script(js), message=f'never true: {js}')

    def throttle(self, upload=-1, download=-1, latency=0):
        """DevTools network throttling (octets per second; -1: no limit)."""
        self.driver.execute_cdp_cmd('Network.enable', {})
        self.driver.execute_cdp_cmd('Network.emulateNetworkConditions', {
            'offline': False, 'latency': latency, 'downloadThroughput': download, 'uploadThroughput': upload})

    def axe(self, impacts=None):
        """axe-core's violations on the current page. WebDriver's scripts
        are not the page's: the page's CSP does not stop them."""
        path = os.environ.get('AXE_JS') or os.path.join(
            os.path.dirname(os.path.abspath(__file__)), '..', '..', '..', '..', 'target', 'axe', 'node_modules',
            'axe-core', 'axe.min.js')
        if not os.path.isfile(path):
            raise FileNotFoundError(f'{path}: axe-core is installed by scripts/test.sh '
                                    '(npm install --prefix target/axe axe-core@4.10.3), or set AXE_JS')
        with open(path, encoding='utf-8') as f:
            self.driver.execute_script(f.read() + '\n;window.__axe = axe;')
        self.driver.set_script_timeout(60)
        found = self.driver.execute_async_script("""
            const done = arguments[arguments.length - 1];
            window.__axe.run(document, {resultTypes: ['violations']}).then(
              r => done(r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
                targets: v.nodes.map(n => [n.target.join(' '), n.failureSummary])}))),
              e => done({error: String(e)}));""")
        if isinstance(found, dict):
            raise RuntimeError(f'axe-core failed: {found.get("error")}')
        return [v for v in found if not impacts or v.get('impact') in impacts]

    def screenshot(self, path, full=False):
        path = os.path.abspath(path)
        if not full:
            if not self.driver.save_screenshot(path):
                raise RuntimeError(f'screenshot to {path} failed')
            return path
        size = self.driver.execute_cdp_cmd('Page.getLayoutMetrics', {}).get('cssContentSize', {})
        clip = {'x': 0, 'y': 0, 'width': size.get('width', 1280), 'height': min(size.get('height', 900), 16384),
                'scale': 1}
        png = self.driver.execute_cdp_cmd('Page.captureScreenshot',
                                          {'format': 'png', 'captureBeyondViewport': True, 'clip': clip})
        with open(path, 'wb') as f:
            f.write(base64.b64decode(png['data']))
        return path

    # ------------------------------------------------------------ downloads
    def wait_for_download(self, dir=None, timeout=30.0):
        """The path of the next download finished in `dir` (default: the
        browser's download directory): a file this method has not returned
        yet, with no .crdownload left in the directory and a size that held
        still over 0.2 s. TimeoutError otherwise."""
        d = os.path.abspath(dir or self.download_dir)
        end = time.monotonic() + timeout
        sizes = {}
        while time.monotonic() < end:
            names = os.listdir(d)
            busy = any(n.endswith('.crdownload') or n.startswith('.com.google.Chrome.')
                       or n.startswith('.org.chromium.Chromium.') for n in names)
            new = sorted((os.path.getmtime(os.path.join(d, n)), n) for n in names
                         if os.path.join(d, n) not in self._downloads_seen and not n.endswith('.crdownload')
                         and not n.startswith('.') and os.path.isfile(os.path.join(d, n)))
            if new and not busy:
                p = os.path.join(d, new[0][1])
                s = os.path.getsize(p)
                if sizes.get(p) == s:
                    self._downloads_seen.add(p)
                    return p
                sizes[p] = s
            time.sleep(0.2)
        raise TimeoutError(f'no download finished in {d} within {timeout} s (there: {os.listdir(d)})')


# -------------------------------------------------------------- the script
def _sha256(path):
    h = hashlib.sha256()
    with open(path, 'rb') as f:
        for b in iter(lambda: f.read(1 << 20), b''):
            h.update(b)
    return h.hexdigest()


def _step(b, s):
    op = s['op']
    if op == 'open':
        return b.open(s['url'])
    if op == 'click':
        return b.click(s['css'])
    if op == 'type':
        return b.type(s['css'], s['text'], s.get('clear', True))
    if op == 'upload':
        return b.upload(s['css'], s['path'])
    if op in ('text', 'texts', 'count'):
        return getattr(b, op)(s['css'])
    if op in ('attribute', 'attributes'):
        return getattr(b, op)(s['css'], s['name'])
    if op == 'wait_for':
        return b.wait_for(s['css'], s.get('text'), s.get('timeout'))
    if op in ('url', 'title', 'source', 'back', 'dialogs'):
        return getattr(b, op)()
    if op == 'eval':
        return b.eval(s['js'])
    if op == 'wait_js':
        return b.wait_js(s['js'], s.get('timeout'))
    if op == 'throttle':
        return b.throttle(int(s.get('upload', -1)), int(s.get('download', -1)), int(s.get('latency', 0)))
    if op == 'keys':
        from selenium.webdriver.common.keys import Keys
        keys = s['keys'] if isinstance(s['keys'], list) else [s['keys']]
        keys = [getattr(Keys, k) if isinstance(k, str) and k.isupper() and hasattr(Keys, k) else k for k in keys]
        if s.get('css'):
            b._find(s['css']).send_keys(*keys)
        else:
            from selenium.webdriver.common.action_chains import ActionChains
            for k in keys:
                ActionChains(b.driver).send_keys(k).perform()
        return None
    if op == 'focused':
        return b.eval("""const e = document.activeElement; const c = getComputedStyle(e);
            return {tag: e.tagName.toLowerCase(), id: e.id, text: (e.textContent || '').trim().slice(0, 80),
                    label: e.getAttribute('aria-label'), outline: c.outlineStyle + ' ' + c.outlineWidth};""")
    if op == 'axe':
        if s.get('url'):
            b.open(s['url'])
        return b.axe(s.get('impacts'))
    if op == 'sleep':
        return time.sleep(float(s['seconds']))
    if op == 'viewport':
        # A phone's viewport (CSS pixels), whatever the window's size.
        b.driver.execute_cdp_cmd('Emulation.setDeviceMetricsOverride', {
            'width': int(s['width']), 'height': int(s.get('height', 844)),
            'deviceScaleFactor': 1, 'mobile': bool(s.get('mobile', True))})
        return None
    if op == 'color_scheme':
        # prefers-color-scheme: 'dark' or 'light' ('' for the system's).
        b.driver.execute_cdp_cmd('Emulation.setEmulatedMedia', {
            'features': [{'name': 'prefers-color-scheme', 'value': s.get('scheme', '')}]})
        return None
    if op == 'screenshot':
        return b.screenshot(s['path'], s.get('full', False))
    if op == 'wait_for_download':
        p = b.wait_for_download(timeout=float(s.get('timeout', 30)))
        return {'path': p, 'name': os.path.basename(p), 'size': os.path.getsize(p), 'sha256': _sha256(p)}
    raise ValueError(f'unknown op {op!r}')


def run_script(script):
    """Runs a script (the dict of a SCRIPT.json); returns (exit code, output dict)."""
    out = {'ok': False, 'results': [], 'dialogs': [], 'console': []}
    steps = script.get('steps')
    if not isinstance(steps, list) or not all(isinstance(s, dict) and 'op' in s for s in steps):
        out['error'] = 'the script needs "steps": a list of {"op": ...}'
        return 2, out
    win = script.get('window', [1280, 900])
    b = Browser(download_dir=script.get('download_dir'), lang=script.get('lang', 'en-US'),
                window=(int(win[0]), int(win[1])), timeout=float(script.get('timeout', 10)),
                ignore_certificate_errors=bool(script.get('ignore_certificate_errors')),
                host_resolver_rules=script.get('host_resolver_rules'))
    try:
        out['versions'] = b.versions()
        out['download_dir'] = b.download_dir if script.get('download_dir') else None
        for i, s in enumerate(steps):
            try:
                out['results'].append(_step(b, s))
                b._drain()  # keeps ChromeDriver's log buffers short
            except Exception as e:  # noqa: BLE001 - reported to the caller
                msg = (getattr(e, 'msg', None) or str(e)).strip()
                out['error'] = f'step {i} ({json.dumps(s, ensure_ascii=False)}): {type(e).__name__}: {msg}'
                out['failed_step'] = i
                try:
                    out['page_url'] = b.url()
                    out['page_source'] = b.source()[:4000]
                    if script.get('failure_screenshot'):
                        b.screenshot(script['failure_screenshot'])
                except Exception:  # noqa: BLE001
                    pass
                break
        out['dialogs'] = b.dialogs()
        out['console'] = b.console()
    finally:
        b.quit()
    out['ok'] = 'error' not in out and (not out['dialogs'] or bool(script.get('allow_dialogs')))
    if 'error' not in out and out['dialogs'] and not script.get('allow_dialogs'):
        out['error'] = f'JavaScript dialogs opened: {out["dialogs"]}'
    return (0 if out['ok'] else 1), out


# ---------------------------------------------------------------- selftest
SELFTEST_PAGES = {
    'index.html': """<!doctype html><html><head><meta charset="utf-8"><title>selftest</title>
<link rel="icon" href="data:,"></head><body>
<form id="f" action="/upload" method="post" enctype="multipart/form-data">
  <input name="q" id="q"> <input type="file" name="file" id="file" style="display:none">
  <button id="send" type="submit">Send</button></form>
<p><a id="dl" href="data.bin">a file served as application/octet-stream</a>
<a id="dl2" href="note.txt" download="saved-note.txt">text, with a download attribute</a>
<a id="dl3" href="/cd">Content-Disposition with a UTF-8 name</a>
<a id="later" href="later.html">later</a></p></body></html>""",
    'alert.html': """<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"></head>
<body><script>alert(1)</script><p id="after">after the alert</p></body></html>""",
    'later.html': """<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"></head>
<body><button id="b" onclick="setTimeout(function () { confirm('later') }, 50)">b</button></body></html>""",
    'frame.html': """<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"></head>
<body><iframe src="inner.html"></iframe><p id="outer">outer</p></body></html>""",
    'inner.html': """<!doctype html><html><body><script>alert('from the frame')</script></body></html>""",
    'quiet.html': """<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"></head>
<body><p id="q">&lt;script&gt;alert(1)&lt;/script&gt; shown as text</p>
<script>console.error('selftest: console.error')</script></body></html>""",
    'note.txt': 'a text file a browser would show\n',
}


def _selftest_server(root):
    import email, email.policy, html, http.server, urllib.parse

    class H(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *a, **k):
            super().__init__(*a, directory=root, **k)

        def log_message(self, *a):
            pass

        def do_GET(self):
            if self.path == '/cd':
                body = 'Inhalt mit Umlauten: äöü\n'.encode()
                self.send_response(200)
                self.send_header('Content-Type', 'text/plain; charset=utf-8')
                self.send_header('Content-Disposition', "attachment; filename=\"fallback.txt\"; filename*=UTF-8''"
                                 + urllib.parse.quote('файл ü.txt'))
                self.send_header('Content-Length', str(len(body)))
                self.end_headers()
                self.wfile.write(body)
                return
            super().do_GET()

        def do_POST(self):
            body = self.rfile.read(int(self.headers['Content-Length']))
            msg = email.message_from_bytes(b'Content-Type: ' + self.headers['Content-Type'].encode() + b'\r\n\r\n' + body,
                                           policy=email.policy.HTTP)
            fields = {}
            for part in msg.iter_parts():
                name = part.get_param('name', header='content-disposition')
                data = part.get_payload(decode=True) or b''
                fields[name] = (part.get_filename(), data)
            fname, fdata = fields.get('file', (None, b''))
            page = (f'<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"></head><body>'
                    f'<p id="result">q={html.escape(fields.get("q", (None, b""))[1].decode())}; file={html.escape(str(fname))}; '
                    f'size={len(fdata)}; '
                    f'sha256={hashlib.sha256(fdata).hexdigest()}</p></body></html>').encode()
            self.send_response(200)
            self.send_header('Content-Type', 'text/html; charset=utf-8')
            self.send_header('Content-Length', str(len(page)))
            self.end_headers()
            self.wfile.write(page)

    srv = http.server.ThreadingHTTPServer(('127.0.0.1', 0), H)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    return srv


def selftest():
    tmp = tempfile.mkdtemp(prefix='babelftp-browser-selftest-')
    passed = []

    def ok(what, cond, detail=''):
        if not cond:
            raise AssertionError(f'{what}: {detail}')
        passed.append(what)
        print(f'ok   {what}' + (f'  ({detail})' if detail else ''), flush=True)

    try:
        site = os.path.join(tmp, 'site'); os.mkdir(site)
        for name, text in SELFTEST_PAGES.items():
            with open(os.path.join(site, name), 'w') as f:
                f.write(text)
        data = os.urandom(300 << 10)
        with open(os.path.join(site, 'data.bin'), 'wb') as f:
            f.write(data)
        up = os.path.join(tmp, 'upload ü.bin')
        with open(up, 'wb') as f:
            f.write(os.urandom(70 << 10))
        srv = _selftest_server(site)
        base = f'http://127.0.0.1:{srv.server_address[1]}'
        downloads = os.path.join(tmp, 'downloads')
        t0 = time.perf_counter()
        with Browser(download_dir=downloads) as b:
            v = b.versions()
            ok('headless Chromium started', True, f'{time.perf_counter() - t0:.1f} s; chromium {v["chromium"]}, '
               f'chromedriver {v["chromedriver"]}, selenium {v["selenium"]}; downloads via {b.download_via}')
            b.open(base + '/index.html')
            ok('open, title', b.title() == 'selftest', b.title())
            b.type('#q', 'grüße <b>')
            b.upload('#file', up)
            b.click('#send')
            want = f'q=grüße <b>; file=upload ü.bin; size={70 << 10}; sha256={_sha256(up)}'
            got = b.wait_for('#result')
            ok('type, upload (hidden file input), click submits the form', got == want, got)
            b.back()
            ok('attribute', b.attribute('#dl', 'href') == base + '/data.bin', b.attribute('#dl', 'href'))
            ok('texts, attributes, count', b.count('a') == 4 and len(b.texts('a')) == 4
               and b.attributes('a', 'id') == ['dl', 'dl2', 'dl3', 'later'])
            b.click('#dl')
            p = b.wait_for_download(timeout=30)
            ok('download (application/octet-stream)', os.path.basename(p) == 'data.bin' and _sha256(p) == hashlib.sha256(data).hexdigest(), p)
            b.click('#dl2')
            p = b.wait_for_download(timeout=30)
            ok('download (a download attribute)', os.path.basename(p) == 'saved-note.txt', p)
            b.click('#dl3')
            p = b.wait_for_download(timeout=30)
            with open(p, encoding='utf-8') as f:
                body = f.read()
            ok('download (Content-Disposition filename*=UTF-8)', os.path.basename(p) == 'файл ü.txt'
               and body == 'Inhalt mit Umlauten: äöü\n', p)
            shot = b.screenshot(os.path.join(tmp, 'shot.png'))
            with open(shot, 'rb') as f:
                ok('screenshot', f.read(8) == b'\x89PNG\r\n\x1a\n', f'{os.path.getsize(shot)} bytes')
            b.screenshot(os.path.join(tmp, 'full.png'), full=True)
            ok('full-page screenshot', os.path.getsize(os.path.join(tmp, 'full.png')) > 0)
            b.open(base + '/quiet.html')
            ok('no dialog so far (an escaped <script> is no dialog)', b.dialogs() == [], str(b.dialogs()))
            b.open(base + '/alert.html')
            ok('the page is usable after its alert', b.text('#after') == 'after the alert')
            d = b.dialogs()
            ok('alert(1) during the load is seen', [x['type'] for x in d] == ['alert'] and d[0]['message'] == '1', str(d))
            b.open(base + '/later.html')
            b.click('#b')
            time.sleep(0.5)
            b.url()  # any command: the confirm is dismissed
            d = b.dialogs()
            ok('confirm() from a timer after a click is seen', len(d) == 2 and d[1]['type'] == 'confirm'
               and d[1]['message'] == 'later', str(d))
            b.open(base + '/frame.html')
            b.text('#outer')
            d = b.dialogs()
            ok('alert() in an iframe is seen', len(d) == 3 and d[2]['message'] == 'from the frame', str(d))
            c = b.console()
            ok('console.error is in the console', any('selftest: console.error' in e['message'] for e in c), str(c))

        # The JSON interface, in a process of its own, as the Rust tests use it.
        import subprocess
        for name, script, want_rc in [
            ('quiet', {'download_dir': os.path.join(tmp, 'dl2'), 'steps': [
                {'op': 'open', 'url': base + '/index.html'}, {'op': 'text', 'css': '#dl'},
                {'op': 'click', 'css': '#dl'}, {'op': 'wait_for_download', 'timeout': 30},
                {'op': 'screenshot', 'path': os.path.join(tmp, 'cli.png')}]}, 0),
            ('alert', {'steps': [{'op': 'open', 'url': base + '/alert.html'}, {'op': 'text', 'css': '#after'}]}, 1),
            ('missing', {'failure_screenshot': os.path.join(tmp, 'fail.png'), 'timeout': 1,
                         'steps': [{'op': 'open', 'url': base + '/quiet.html'}, {'op': 'click', 'css': '#nothing'}]}, 1),
        ]:
            path = os.path.join(tmp, f'{name}.json')
            with open(path, 'w') as f:
                json.dump(script, f)
            r = subprocess.run([sys.executable, os.path.abspath(__file__), path], capture_output=True, text=True, timeout=120)
            try:
                res = json.loads(r.stdout)
            except ValueError:
                raise AssertionError(f'script {name}: no JSON on stdout: {r.stdout!r} {r.stderr[-2000:]!r}')
            if name == 'quiet':
                good = (r.returncode == 0 and res['ok'] and res['results'][1] == 'a file served as application/octet-stream'
                        and res['results'][3]['sha256'] == hashlib.sha256(data).hexdigest()
                        and os.path.isfile(os.path.join(tmp, 'cli.png')))
            elif name == 'alert':
                good = (r.returncode == 1 and not res['ok'] and res['results'] == [base + '/alert.html', 'after the alert']
                        and res['dialogs'][0]['message'] == '1')
            else:
                good = (r.returncode == 1 and res['failed_step'] == 1 and '#nothing' in res['error']
                        and os.path.isfile(os.path.join(tmp, 'fail.png')))
            ok(f'browser.py SCRIPT.json: {name} (exit {r.returncode})', good,
               json.dumps({k: res.get(k) for k in ('ok', 'error', 'dialogs')}, ensure_ascii=False))
        srv.shutdown()
        print(f'selftest: all {len(passed)} checks passed in {time.perf_counter() - t0:.1f} s')
        return 0
    except Exception as e:  # noqa: BLE001
        print(f'FAIL {type(e).__name__}: {e}', flush=True)
        return 1
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main(argv):
    if argv == ['--selftest']:
        return selftest()
    if len(argv) != 1 or argv[0].startswith('-'):
        print(__doc__.split('\n\n')[0] + '\n\nusage: browser.py SCRIPT.json | --selftest', file=sys.stderr)
        return 2
    try:
        with open(argv[0], encoding='utf-8') as f:
            script = json.load(f)
    except (OSError, ValueError) as e:
        print(json.dumps({'ok': False, 'error': f'{argv[0]}: {e}'}))
        return 2
    try:
        rc, out = run_script(script)
    except Exception as e:  # noqa: BLE001 - the browser did not start
        rc, out = 1, {'ok': False, 'error': f'the browser did not start: {type(e).__name__}: {e}'}
    print(json.dumps(out, ensure_ascii=False))
    return rc


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
