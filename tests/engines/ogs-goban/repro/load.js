// GobanEngine in plain Node. The package is a browser bundle: while it loads it reads `self`,
// calls `window.addEventListener` and reads `document.body`, so those three get inert
// stand-ins first (the engine itself uses none of them).
"use strict";
globalThis.self = globalThis;
globalThis.window = { addEventListener() {} };
globalThis.document = { body: {} };
module.exports = require("goban").GobanEngine;
