/**
 * The website's one script (served as /assets/web-<hash>.js, deferred; the strict CSP allows no
 * inline script). Every page works without it; it adds a copy button, drag and drop and upload
 * progress.
 */
export const WEB_JS = `
(function () {
  'use strict';
  function say(el, text) { if (el) el.textContent = text; }

  // Copy buttons: <button data-copy="id-of-element" data-status="id-of-live-region">
  document.querySelectorAll('button[data-copy]').forEach(function (b) {
    b.hidden = false;
    b.addEventListener('click', function () {
      var src = document.getElementById(b.getAttribute('data-copy'));
      var status = document.getElementById(b.getAttribute('data-status'));
      if (!src || !navigator.clipboard) { say(status, 'Copying is not available: select the key and copy it.'); return; }
      navigator.clipboard.writeText(src.textContent.trim()).then(
        function () { say(status, 'Copied to the clipboard.'); },
        function () { say(status, 'Copying failed: select the key and copy it.'); });
    });
  });

  // PDF tool pages: each chosen or dropped file goes to POST /files (the upload an agent uses)
  // with upload progress; its file_id joins the tool form, which is then sent in place.
  function plural(n, one, many) { return n + ' ' + (n === 1 ? one : many || one + 's'); }
  function fileSize(n) { return n < 1048576 ? Math.max(1, Math.round(n / 1024)) + ' KB' : Math.round(n / 104857.6) / 10 + ' MB'; }
  // Fields needed by one choice of another (split's ranges, every, count follow its mode): only
  // the one the choice needs is shown and sent. Without the script all are shown, each saying when it is needed.
  function conditional(root) {
    root.querySelectorAll('[data-when]').forEach(function (box) {
      var control = document.getElementById(box.getAttribute('data-when'));
      if (!control) return;
      function update() {
        var on = control.value === box.getAttribute('data-when-value');
        box.hidden = !on;
        box.querySelectorAll('input, select, textarea').forEach(function (el) { el.disabled = !on; });
      }
      control.addEventListener('change', update);
      update();
    });
  }
  function tools(root) {
    conditional(root);
    root.querySelectorAll('form[data-upload]').forEach(function (form) {
      var run = document.getElementById('run-form');
      var list = document.getElementById('chosen');
      var none = document.getElementById('none-chosen');
      var input = form.querySelector('input[type=file]');
      var zone = form.querySelector('.dropzone');
      var bar = form.querySelector('progress');
      var status = document.getElementById('upload-status');
      var max = Number(form.getAttribute('data-many')) || 1;
      if (!run || !list || !input || !window.XMLHttpRequest || !window.FormData) return;
      form.querySelectorAll('[data-nojs]').forEach(function (el) { el.hidden = true; });
      if (max > 1) input.multiple = true;
      function fail(text) { if (bar) bar.hidden = true; status.classList.add('bad'); say(status, text); input.value = ''; }
      function password(info, n) {
        var box = document.createElement('div');
        box.className = 'password';
        var label = document.createElement('label');
        label.htmlFor = 'password-' + n;
        label.textContent = 'Password of ' + info.filename;
        var field = document.createElement('input');
        field.type = 'password'; field.id = 'password-' + n; field.name = 'password.' + info.file_id;
        field.autocomplete = 'off'; field.maxLength = 1024;
        field.setAttribute('aria-describedby', field.id + '-hint');
        var hint = document.createElement('span');
        hint.className = 'hint'; hint.id = field.id + '-hint';
        hint.textContent = 'Needed to open the file. Used for this run only: it is not kept.';
        box.appendChild(label); box.appendChild(document.createElement('br'));
        box.appendChild(field); box.appendChild(document.createElement('br'));
        box.appendChild(hint);
        return box;
      }
      function add(info) {
        if (max === 1) list.textContent = '';
        var li = document.createElement('li');
        var id = document.createElement('input');
        id.type = 'hidden'; id.name = 'file_id'; id.value = info.file_id;
        var hint = document.createElement('span');
        hint.className = 'hint';
        hint.textContent = '(' + (info.encrypted ? 'password-protected' : plural(info.pages, 'page')) + ', ' + fileSize(info.bytes) + ')';
        li.appendChild(id);
        li.appendChild(document.createTextNode(info.filename + ' '));
        li.appendChild(hint);
        // A file that needs its password to open: a field for it, sent with its file_id (as the server renders it).
        if (info.encrypted) li.appendChild(password(info, list.children.length + 1));
        list.appendChild(li);
        if (none) none.hidden = true;
      }
      function send(files, i) {
        if (i >= files.length) { input.value = ''; return; }
        var f = files[i];
        var xhr = new XMLHttpRequest();
        xhr.open('POST', form.getAttribute('data-upload'));
        xhr.responseType = 'json';
        status.classList.remove('bad');
        if (bar) { bar.hidden = false; bar.max = 100; bar.value = 0; }
        say(status, 'Uploading ' + f.name + '…');
        xhr.upload.addEventListener('progress', function (ev) {
          if (ev.lengthComputable && bar) { bar.max = ev.total; bar.value = ev.loaded; }
          if (ev.lengthComputable && ev.loaded === ev.total) say(status, f.name + ' sent. Checking it…');
        });
        xhr.addEventListener('load', function () {
          var r = xhr.response || {};
          if (xhr.status !== 201 || !r.file_id) { fail(f.name + ' was refused: ' + (r.message || 'the server answered ' + xhr.status + '.')); return; }
          add(r);
          say(status, f.name + ' uploaded (' + (r.encrypted ? 'password-protected: enter its password below' : plural(r.pages, 'page')) + ').' + (i + 1 < files.length ? '' : ' Set the options and run the tool.'));
          send(files, i + 1);
        });
        xhr.addEventListener('error', function () { fail('The upload of ' + f.name + ' failed: check the connection and try again.'); });
        var data = new FormData();
        data.append('file', f, f.name);
        xhr.send(data);
      }
      function choose(files) {
        var all = Array.prototype.slice.call(files || []);
        if (!all.length) return;
        if (max === 1 && all.length > 1) { fail('This tool takes one file: choose a single PDF.'); return; }
        if (max > 1 && list.children.length + all.length > max) { fail('At most ' + plural(max, 'file') + ' at once.'); return; }
        send(all, 0);
      }
      input.addEventListener('change', function () { choose(input.files); });
      form.addEventListener('submit', function (e) { e.preventDefault(); choose(input.files); });
      if (zone) {
        ['dragenter', 'dragover'].forEach(function (t) { zone.addEventListener(t, function (e) { e.preventDefault(); zone.classList.add('over'); }); });
        ['dragleave', 'drop'].forEach(function (t) { zone.addEventListener(t, function () { zone.classList.remove('over'); }); });
        zone.addEventListener('drop', function (e) { e.preventDefault(); if (e.dataTransfer) choose(e.dataTransfer.files); });
      }
      run.addEventListener('submit', function (e) {
        e.preventDefault();
        var button = run.querySelector('button[type=submit]');
        var xhr = new XMLHttpRequest();
        xhr.open('POST', run.action);
        xhr.responseType = 'document';
        xhr.setRequestHeader('Content-Type', 'application/x-www-form-urlencoded');
        if (button) button.disabled = true;
        status.classList.remove('bad');
        say(status, 'Running…');
        xhr.addEventListener('load', function () {
          var doc = xhr.response;
          var next = doc && doc.querySelector('main');
          if (button) button.disabled = false;
          if (!next) { fail('The server answered ' + xhr.status + '. Try again.'); return; }
          document.title = doc.title;
          var main = document.importNode(next, true);
          document.querySelector('main').replaceWith(main);
          tools(main);
          var h = main.querySelector('#result h2, .error-summary') || main.querySelector('h1');
          if (h) { h.setAttribute('tabindex', '-1'); h.focus(); }
        });
        xhr.addEventListener('error', function () { if (button) button.disabled = false; fail('The request failed: check the connection and try again.'); });
        xhr.send(new URLSearchParams(new FormData(run)).toString());
      });
    });
  }
  tools(document);
})();
`;
