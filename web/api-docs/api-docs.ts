/** Starts the reference page: Scalar's API reference (loaded just before, from our assets) on /openapi.json. */
interface ScalarGlobal {
  createApiReference(selector: string, configuration: Record<string, unknown>): unknown;
}

const scalar = (window as unknown as { Scalar?: ScalarGlobal }).Scalar;
if (!scalar) throw new Error('the API reference renderer did not load');
scalar.createApiReference('#api-reference', {
  url: '/openapi.json',
  // Offline: no fonts, proxy or telemetry from elsewhere; "try it" calls this server directly.
  withDefaultFonts: false,
  hideClientButton: true,
  telemetry: false,
  agent: { disabled: true },
  mcp: { disabled: true },
  defaultOpenAllTags: false,
});
