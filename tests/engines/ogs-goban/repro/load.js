// Loads GobanEngine in plain Node: the package's renderers touch `self`, `window` and
// `document` when the module loads, so they get inert stand-ins first.
"use strict";
const noop = () => {};
const element = () => ({
  getContext: () => null,
  style: {},
  addEventListener: noop,
  removeEventListener: noop,
  appendChild: noop,
  setAttribute: noop,
  classList: { add: noop, remove: noop },
});
globalThis.self = globalThis;
globalThis.window = globalThis;
globalThis.addEventListener = noop;
globalThis.removeEventListener = noop;
globalThis.document = {
  body: element(),
  createElement: element,
  createElementNS: element,
  addEventListener: noop,
  removeEventListener: noop,
  hasFocus: () => false,
};
module.exports = require("goban/build/goban.js").GobanEngine;
