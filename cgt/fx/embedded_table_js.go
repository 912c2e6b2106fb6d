//go:build js

package fx

// embeddedRates is empty in the browser module, which the page gives the same generated table
// (UseBundled) after fetching it beside the module: 72 KB less for every visitor to download
// with the module, fetched in parallel and cached on its own.
var embeddedRates string
