// Mirrors a figure's state to the page URL's hash and back, so a standalone page's link
// reproduces the picture (seed included). Several figures share one hash: each one's keys are
// prefixed with its key (its id, or its tag name), e.g. #plane.activation=gelu&plane.seed=3.
// Values from the hash go through the figure's attribute parser like any untrusted attribute.
import { attributeName } from './attributes.js';

function readHash() {
  return new URLSearchParams(location.hash.replace(/^#/, ''));
}

/** Applies the hash's values for this figure to its attributes. */
function applyHash(element, key, names) {
  const params = readHash();
  for (const name of names) {
    const value = params.get(`${key}.${attributeName(name)}`);
    if (value !== null && value !== element.getAttribute(attributeName(name))) {
      element.setAttribute(attributeName(name), value);
    }
  }
}

/**
 * Starts mirroring. Returns a function that stops it.
 * @param {HTMLElement & { state: object, constructor: { schema: object } }} element
 * @param {{ key?: string }} [options]
 */
export function mirrorStateToHash(element, { key } = {}) {
  const prefix = key ?? (element.id || element.localName);
  const names = Object.keys(element.constructor.schema);
  applyHash(element, prefix, names);

  const onChange = () => {
    const params = readHash();
    for (const name of names) {
      const spec = element.constructor.schema[name];
      const value = element.state[name];
      const param = `${prefix}.${attributeName(name)}`;
      if (value === spec.default) params.delete(param);
      else params.set(param, String(value));
    }
    const hash = params.toString();
    const url = `${location.pathname}${location.search}${hash ? '#' + hash : ''}`;
    if (url !== `${location.pathname}${location.search}${location.hash}`) history.replaceState(history.state, '', url);
  };
  const onHashChange = () => applyHash(element, prefix, names);
  element.addEventListener('change', onChange);
  window.addEventListener('hashchange', onHashChange);
  return () => {
    element.removeEventListener('change', onChange);
    window.removeEventListener('hashchange', onHashChange);
  };
}
