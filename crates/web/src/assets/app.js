// babelftp web view: what JavaScript adds to pages that work without it.
// - the language menu applies on change (with a pointer; from the
//   keyboard, its Apply button does);
// - row menus (<details> in td.m): the entry's ftp:// link, "Copy FTP
//   link" and, for a file, "Download", added when a menu first opens
//   (the server writes the details and preview links); Escape closes;
//   one menu open at a time;
// - uploads (issue 49): several files at once, from the file input or
//   dropped on the page (folders too, where the browser gives them: each
//   folder made with the page's "new folder" action, POST DIR/?mkdir),
//   up to three at a time, each file POSTed as the body of
//   DIR/NAME?upload with the page's CSRF token, each with its row in
//   #uploads: its name, a <progress>, a Cancel button, and its result
//   (done, cancelled, or the server's reason from its error page). When
//   all are over, the listing is fetched again and put in place.
// Every word shown comes from the page (data-* attributes, from the
// catalogs). Nothing here builds HTML from strings: names only ever go
// into textContent, attributes and URLs, never innerHTML.
(function () {
  'use strict';

  var lang = document.getElementById('lang-select');
  if (lang) {
    // Chosen with a pointer: applied at once. From the keyboard (arrow
    // keys change a closed select), the Apply button does it, so the page
    // does not reload under the reader at the first arrow (WCAG 3.2.2).
    lang.addEventListener('change', function () {
      var keyboard = false;
      try { keyboard = lang.matches(':focus-visible'); } catch (e) { keyboard = false; }
      if (!keyboard) { lang.form.submit(); }
    });
  }

  // ---------------------------------------------------------- row menus
  // Each row's <details> (td.m): its details (and preview) links come
  // from the server; the ftp:// link and the rest are added when it
  // first opens (a listing may have 10,000 rows).
  function menus() {
    var table = document.getElementById('listing');
    return table ? table.querySelectorAll('td.m details') : [];
  }
  function fill(d, table) {
    var box = d.querySelector('div');
    var name = d.closest('tr').querySelector('a.n');
    var base = table.getAttribute('data-ftp');
    var ftp = null;
    if (name && base) {
      // The entry's ftp:// URL: the folder's and the name's link (an IRI;
      // URL() writes it %HH-encoded, as FTP clients want it).
      ftp = document.createElement('a');
      try { ftp.href = new URL(name.getAttribute('href'), base).href; } catch (e) { ftp = null; }
      if (ftp) {
        ftp.textContent = table.getAttribute('data-ftp-link') || 'FTP';
        box.appendChild(ftp);
      }
    }
    if (ftp && navigator.clipboard) {
      var label = table.getAttribute('data-copy') || '';
      var b = document.createElement('button');
      b.type = 'button';
      b.className = 'copy';
      b.textContent = label;
      b.addEventListener('click', function () {
        navigator.clipboard.writeText(ftp.href).then(function () {
          b.textContent = table.getAttribute('data-copied') || label;
        });
      });
      box.insertBefore(b, ftp.nextSibling);
    }
    if (name && d.closest('tr').classList.contains('f')) {
      var a = document.createElement('a');
      a.className = 'dl';
      a.href = name.href;
      a.textContent = table.getAttribute('data-download') || '';
      box.appendChild(a);
    }
    d.setAttribute('data-filled', '');
  }
  document.addEventListener('toggle', function (e) {
    var d = e.target;
    if (!d.closest || !d.closest('td.m') || !d.open) { return; }
    var all = menus();
    for (var i = 0; i < all.length; i++) {
      if (all[i] !== d && all[i].open) { all[i].open = false; }
    }
    var table = document.getElementById('listing');
    if (table && !d.hasAttribute('data-filled')) { fill(d, table); }
  }, true);
  document.addEventListener('keydown', function (e) {
    if (e.key !== 'Escape') { return; }
    var open = document.querySelector('td.m details[open]');
    if (open) {
      open.open = false;
      open.querySelector('summary').focus();
    }
  });
  document.addEventListener('click', function (e) {
    var all = menus();
    for (var i = 0; i < all.length; i++) {
      if (all[i].open && !all[i].contains(e.target)) { all[i].open = false; }
    }
  });

  // ------------------------------------------------------------ uploads
  var form = document.getElementById('upload');
  var list = document.getElementById('uploads');
  if (!form || !list) { return; }
  var input = document.getElementById('upload-files');
  var token = form.querySelector('input[name=csrf]').value;
  var zone = form.parentNode;
  var PARALLEL = 3;
  var queue = [], running = 0, busy = 0, any = false;
  var folders = {};
  function say(key) { return list.getAttribute('data-' + key) || ''; }
  list.setAttribute('aria-label', say('label'));

  function encode(segs) { return segs.map(encodeURIComponent).join('/'); }

  // The reason on the server's error page (in the page's language).
  function reason(status, text) {
    var doc = new DOMParser().parseFromString(text || '', 'text/html');
    var why = doc.getElementById('error');
    return why && why.textContent ? why.textContent : say('failed') + ' (' + status + ')';
  }

  function row(path, size) {
    var li = document.createElement('li');
    var name = document.createElement('span');
    name.className = 'up-name';
    name.textContent = path;
    var bar = document.createElement('progress');
    bar.max = Math.max(size, 1);
    bar.value = 0;
    bar.setAttribute('aria-label', path);
    var state = document.createElement('span');
    state.className = 'up-state';
    var cancel = document.createElement('button');
    cancel.type = 'button';
    cancel.className = 'up-cancel';
    cancel.textContent = say('cancel');
    cancel.setAttribute('aria-label', say('cancel') + ': ' + path);
    li.appendChild(name);
    li.appendChild(document.createTextNode(' '));
    li.appendChild(bar);
    li.appendChild(document.createTextNode(' '));
    li.appendChild(state);
    li.appendChild(document.createTextNode(' '));
    li.appendChild(cancel);
    list.appendChild(li);
    list.hidden = false;
    return { li: li, bar: bar, state: state, cancel: cancel };
  }

  function set(item, state, text) {
    item.state = state;
    item.row.li.setAttribute('data-state', state);
    item.row.state.textContent = text;
    if (state === 'done') { item.row.bar.value = item.row.bar.max; }
    if (state !== 'waiting' && state !== 'sending') {
      item.row.cancel.hidden = true;
      item.row.cancel.disabled = true;
    }
  }

  function over(item) {
    if (item.counted) { return; }
    item.counted = true;
    busy--;
    if (item.xhr) { running--; }
    pump();
  }

  function finished() {
    if (busy > 0 || !any) { return; }
    any = false;
    refresh();
  }

  // The listing again, put in place of the old one (the rows of the
  // uploads stay); a page without a listing (a drop box) stays as it is.
  function refresh() {
    var old = document.getElementById('listing');
    if (!old) { return; }
    fetch(window.location.href, { credentials: 'same-origin' }).then(function (res) {
      return res.ok ? res.text() : null;
    }).then(function (text) {
      if (!text) { return; }
      var doc = new DOMParser().parseFromString(text, 'text/html');
      var fresh = doc.getElementById('listing');
      var current = document.getElementById('listing');
      if (!fresh || !current) { return; }
      current.parentNode.replaceChild(document.importNode(fresh, true), current);
      var empty = document.getElementById('empty');
      if (empty && !doc.getElementById('empty')) { empty.parentNode.removeChild(empty); }
      document.dispatchEvent(new CustomEvent('babelftp:listing'));
    }).catch(function () {});
  }

  // A folder (path segments below this one), made once; resolves to
  // null, or to why it could not be made (an existing one is fine).
  function folder(segs) {
    var key = encode(segs);
    if (folders[key]) { return folders[key]; }
    var parent = segs.length > 1 ? folder(segs.slice(0, -1)) : Promise.resolve(null);
    folders[key] = parent.then(function (err) {
      if (err) { return err; }
      var body = new URLSearchParams();
      body.append('csrf', token);
      body.append('name', segs[segs.length - 1]);
      var at = segs.length > 1 ? encode(segs.slice(0, -1)) + '/?mkdir' : '?mkdir';
      return fetch(at, { method: 'POST', body: body, credentials: 'same-origin' }).then(function (res) {
        if (res.ok || res.status === 409) { return null; }
        return res.text().then(function (t) { return reason(res.status, t); });
      }, function () { return say('failed'); });
    });
    return folders[key];
  }

  function add(file, segs, ready) {
    var item = { file: file, segs: segs, ready: ready, xhr: null, counted: false };
    item.row = row(segs.join('/'), file.size);
    set(item, 'waiting', say('waiting'));
    item.row.cancel.addEventListener('click', function () {
      // Sent (or being sent): its abort event says cancelled.
      if (item.xhr && item.xhr.readyState > 0) { item.xhr.abort(); return; }
      set(item, 'cancelled', say('cancelled'));
      over(item);
    });
    busy++;
    any = true;
    queue.push(item);
    pump();
  }

  function pump() {
    while (running < PARALLEL && queue.length) {
      var item = queue.shift();
      if (item.state !== 'waiting') { continue; }
      start(item);
    }
    finished();
  }

  function start(item) {
    var xhr = new XMLHttpRequest();
    item.xhr = xhr;
    running++;
    set(item, 'sending', say('sending'));
    (item.ready || Promise.resolve(null)).then(function (err) {
      if (item.state !== 'sending') { return; }
      if (err) {
        set(item, 'refused', err);
        over(item);
        return;
      }
      // The file's URL is its path: DIR/SUB/NAME, each name percent-encoded.
      xhr.open('POST', encode(item.segs) + '?upload');
      xhr.setRequestHeader('X-CSRF-Token', token);
      xhr.setRequestHeader('Content-Type', 'application/octet-stream');
      xhr.upload.onprogress = function (e) {
        if (e.lengthComputable) { item.row.bar.value = Math.min(e.loaded, item.row.bar.max); }
      };
      xhr.onload = function () {
        if (xhr.status >= 200 && xhr.status < 300) {
          set(item, 'done', say('done'));
        } else {
          set(item, 'refused', reason(xhr.status, xhr.responseText));
        }
        over(item);
      };
      xhr.onerror = function () { set(item, 'failed', say('failed')); over(item); };
      xhr.onabort = function () { set(item, 'cancelled', say('cancelled')); over(item); };
      xhr.send(item.file);
    });
  }

  // A dropped folder: its folders made, its files queued, as the
  // browser reads them (a reader gives a directory in batches).
  function walk(entry, segs) {
    var made = folder(segs);
    busy++;
    made.then(function () { busy--; finished(); });
    var reader = entry.createReader();
    function more() {
      busy++;
      reader.readEntries(function (entries) {
        entries.forEach(function (e) {
          if (e.isDirectory) {
            walk(e, segs.concat([e.name]));
          } else if (e.isFile) {
            busy++;
            e.file(function (f) { busy--; add(f, segs.concat([e.name]), made); },
              function () { busy--; finished(); });
          }
        });
        if (entries.length) { more(); }
        busy--;
        finished();
      }, function () { busy--; finished(); });
    }
    more();
  }

  function files(list) {
    for (var i = 0; i < list.length; i++) { add(list[i], [list[i].name], null); }
  }

  form.addEventListener('submit', function (e) {
    if (!input.files || input.files.length === 0) { return; }
    e.preventDefault();
    files(input.files);
    input.value = '';
  });
  function dragged(e) {
    var types = e.dataTransfer ? e.dataTransfer.types : [];
    return Array.prototype.indexOf.call(types, 'Files') >= 0;
  }
  ['dragenter', 'dragover'].forEach(function (t) {
    document.addEventListener(t, function (e) {
      if (!dragged(e)) { return; }
      e.preventDefault();
      zone.classList.add('drop');
    });
  });
  document.addEventListener('dragleave', function (e) {
    if (!e.relatedTarget) { zone.classList.remove('drop'); }
  });
  document.addEventListener('drop', function (e) {
    if (!e.dataTransfer) { return; }
    e.preventDefault();
    zone.classList.remove('drop');
    var items = e.dataTransfer.items;
    if (!items || !items.length) { files(e.dataTransfer.files); return; }
    // Entries are read now: a drop's items are gone after the event.
    var found = [];
    for (var i = 0; i < items.length; i++) {
      if (items[i].kind !== 'file') { continue; }
      var entry = items[i].webkitGetAsEntry ? items[i].webkitGetAsEntry() : null;
      found.push(entry && entry.isDirectory ? { dir: entry } : { file: items[i].getAsFile() });
    }
    found.forEach(function (f) {
      if (f.dir) {
        walk(f.dir, [f.dir.name]);
      } else if (f.file) {
        add(f.file, [f.file.name], null);
      }
    });
  });
})();
