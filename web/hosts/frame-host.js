// Optional script for a page that embeds GateLab iframes (web/demos/frame.html): sets each
// frame's height to the height it posts ({ type: 'gatelab:resize', height }), so the figure is
// never cut off and leaves no gap. Classic script, no dependencies, safe to include twice:
//   <script async src="https://…/gatelab@<version>/hosts/frame-host.js"></script>
// Only messages from the window of an iframe on this page are applied, with a sane height.
(function () {
  if (window.__gatelabFrameHost) return;
  window.__gatelabFrameHost = true;
  window.addEventListener('message', function (event) {
    var data = event.data;
    if (!data || data.type !== 'gatelab:resize' || typeof data.height !== 'number') return;
    if (!(data.height > 0 && data.height < 20000)) return;
    var frames = document.getElementsByTagName('iframe');
    for (var i = 0; i < frames.length; i++) {
      if (frames[i].contentWindow === event.source) {
        frames[i].style.height = Math.ceil(data.height) + 'px';
        frames[i].setAttribute('height', String(Math.ceil(data.height)));
        return;
      }
    }
  });
})();
