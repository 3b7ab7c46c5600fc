// Scroll boxes a keyboard can reach. A display equation or a table wider than its column scrolls
// sideways (site.css .math-block, .table-wrap); while it does, it takes focus (tabindex 0), a role
// and a name, so the arrow keys scroll it and a screen reader says what it is. Boxes that fit
// stay out of the tab order. A box the page already made a region (its own tabindex) is left
// as it is.
const observed = new WeakSet();

function nameOf(box) {
  if (box.matches('.math-block')) return 'Equation (scrolls sideways)';
  const caption = box.querySelector('caption')?.textContent.trim();
  return caption ? `Table: ${caption} (scrolls sideways)` : 'Table (scrolls sideways)';
}

function update(box) {
  const scrolls = box.scrollWidth > box.clientWidth + 1;
  if (scrolls && !box.hasAttribute('tabindex')) {
    box.tabIndex = 0;
    box.setAttribute('role', 'region');
    box.setAttribute('aria-label', nameOf(box));
    box.dataset.scrollRegion = '';
  } else if (!scrolls && box.dataset.scrollRegion !== undefined) {
    for (const name of ['tabindex', 'role', 'aria-label', 'data-scroll-region']) box.removeAttribute(name);
  }
}

/** Watches every .math-block and .table-wrap under `root`: as its column resizes, and once the fonts have loaded. */
export function keyboardScrollRegions(root = document) {
  const boxes = [...root.querySelectorAll('.math-block, .table-wrap')].filter((box) => !observed.has(box));
  const resize = new ResizeObserver((entries) => entries.forEach((entry) => update(entry.target)));
  for (const box of boxes) {
    observed.add(box);
    resize.observe(box);
  }
  document.fonts?.ready.then(() => boxes.forEach(update));
}
