// Stands in for @azure/core-xml in the SDK bundle (scripts/bundle-sdk.mjs aliases it here).
//
// The SDK uses XML only for the Table service's XML operations: access policies
// (get/setAccessPolicy) and service properties and statistics. Tablescope's engine speaks the
// JSON protocol and has none of them. The real module needs the DOM (document, DOMParser) as
// soon as it loads, so it would stop the bundle loading in a Web Worker, where the Code section runs
// user code; this stub loads anywhere and says plainly why an XML operation cannot run.

const WHY =
  "XML is not available in Tablescope's playground: the Table service's XML operations " +
  '(access policies, service properties and statistics) are not part of it.';

export const XML_ATTRKEY = '$';
export const XML_CHARKEY = '_';

export function stringifyXML() {
  throw new Error(WHY);
}

export async function parseXML() {
  throw new Error(WHY);
}
