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

  // PDF tool forms: drag and drop onto the drop zone, upload progress, result in place.
  document.querySelectorAll('form[data-upload]').forEach(function (form) {
    var zone = form.querySelector('.dropzone');
    var input = form.querySelector('input[type=file]');
    var bar = form.querySelector('progress');
    var status = document.getElementById('upload-status');
    if (zone && input) {
      ['dragenter', 'dragover'].forEach(function (t) { zone.addEventListener(t, function (e) { e.preventDefault(); zone.classList.add('over'); }); });
      ['dragleave', 'drop'].forEach(function (t) { zone.addEventListener(t, function () { zone.classList.remove('over'); }); });
      zone.addEventListener('drop', function (e) {
        e.preventDefault();
        if (e.dataTransfer && e.dataTransfer.files.length) {
          input.files = e.dataTransfer.files;
          say(status, e.dataTransfer.files.length + ' file(s) chosen: ' + Array.prototype.map.call(e.dataTransfer.files, function (f) { return f.name; }).join(', '));
        }
      });
    }
    form.addEventListener('submit', function (e) {
      if (!window.XMLHttpRequest || !window.FormData) return;
      e.preventDefault();
      var xhr = new XMLHttpRequest();
      xhr.open('POST', form.action);
      xhr.responseType = 'document';
      if (bar) { bar.hidden = false; bar.value = 0; }
      say(status, 'Uploading…');
      xhr.upload.addEventListener('progress', function (ev) {
        if (ev.lengthComputable && bar) { bar.max = ev.total; bar.value = ev.loaded; }
        if (ev.lengthComputable && ev.loaded === ev.total) say(status, 'Uploaded. Processing…');
      });
      xhr.addEventListener('load', function () {
        var doc = xhr.response;
        var next = doc && doc.querySelector('main');
        if (!next) { say(status, 'The server answered ' + xhr.status + '. Try again.'); return; }
        document.title = doc.title;
        document.querySelector('main').replaceWith(document.importNode(next, true));
        var h = document.querySelector('main h1');
        if (h) { h.setAttribute('tabindex', '-1'); h.focus(); }
      });
      xhr.addEventListener('error', function () { say(status, 'The upload failed: check the connection and try again.'); });
      xhr.send(new FormData(form));
    });
  });
})();
`;
