// babelftp web view: what JavaScript adds to pages that work without it.
// - the language menu applies on change;
// - each entry gets a "copy FTP link" button (the ftp:// URL of the entry);
// - uploads: drag and drop onto the page, and a progress bar; each file is
//   POSTed as the body of DIR/NAME?upload with the page's CSRF token.
// Nothing here builds HTML from strings: names only ever go into
// textContent and URLs, never innerHTML.
(function () {
  'use strict';

  var lang = document.getElementById('lang-select');
  if (lang) {
    lang.addEventListener('change', function () { lang.form.submit(); });
  }

  var table = document.getElementById('listing');
  if (table && navigator.clipboard) {
    var base = table.getAttribute('data-ftp') || '';
    var label = table.getAttribute('data-copy') || 'FTP';
    var done = table.getAttribute('data-copied') || '';
    var links = table.querySelectorAll('a.n');
    for (var i = 0; i < links.length; i++) {
      (function (a) {
        var b = document.createElement('button');
        b.type = 'button';
        b.className = 'copy';
        b.textContent = label;
        b.setAttribute('data-url', base + a.getAttribute('href'));
        b.addEventListener('click', function () {
          navigator.clipboard.writeText(b.getAttribute('data-url')).then(function () {
            b.textContent = done || label;
          });
        });
        a.parentNode.appendChild(b);
      })(links[i]);
    }
  }

  var form = document.getElementById('upload');
  if (!form) { return; }
  var input = document.getElementById('upload-files');
  var bar = document.getElementById('upload-progress');
  var status = document.getElementById('upload-status');
  var token = form.querySelector('input[name=csrf]').value;
  var zone = form.parentNode;

  function send(files) {
    var list = Array.prototype.slice.call(files);
    var total = 0, sent = 0;
    list.forEach(function (f) { total += f.size; });
    bar.hidden = false;
    bar.value = 0;
    function next() {
      var f = list.shift();
      if (!f) { window.location.reload(); return; }
      var xhr = new XMLHttpRequest();
      // The file's URL is its path: DIR/NAME, the name percent-encoded.
      xhr.open('POST', encodeURIComponent(f.name) + '?upload');
      xhr.setRequestHeader('X-CSRF-Token', token);
      xhr.setRequestHeader('Content-Type', 'application/octet-stream');
      xhr.upload.onprogress = function (e) {
        if (total > 0) { bar.value = Math.round(100 * (sent + e.loaded) / total); }
      };
      xhr.onload = function () {
        if (xhr.status >= 200 && xhr.status < 300) {
          sent += f.size;
          next();
        } else {
          // The server's page says why, in the page's language.
          var doc = new DOMParser().parseFromString(xhr.responseText, 'text/html');
          var why = doc.getElementById('error');
          status.textContent = f.name + ': ' + (why ? why.textContent : xhr.status);
          bar.hidden = true;
        }
      };
      xhr.onerror = function () { status.textContent = f.name + ': ' + xhr.status; bar.hidden = true; };
      xhr.send(f);
    }
    next();
  }

  form.addEventListener('submit', function (e) {
    if (!input.files || input.files.length === 0) { return; }
    e.preventDefault();
    send(input.files);
  });
  ['dragenter', 'dragover'].forEach(function (t) {
    document.addEventListener(t, function (e) { e.preventDefault(); zone.classList.add('drop'); });
  });
  document.addEventListener('dragleave', function () { zone.classList.remove('drop'); });
  document.addEventListener('drop', function (e) {
    e.preventDefault();
    zone.classList.remove('drop');
    if (e.dataTransfer && e.dataTransfer.files.length) { send(e.dataTransfer.files); }
  });
})();
