import dmn13 from "dmn-moddle/resources/dmn/json/dmn13.json";

// dmn-moddle reads DMN 1.3; the boxed expressions DMN 1.4/1.5 added (conditional, filter, for, some, every) are
// declared here in the same package, so that a 1.5 document read through the 1.3 namespace keeps them.
const child = (name: string, type = "ChildExpression") => ({ name, type, xml: { serialize: "property" } });

const TYPES = [
  { name: "ChildExpression", superClass: ["DMNElement"], properties: [{ name: "value", type: "Expression" }] },
  {
    name: "TypedChildExpression",
    superClass: ["ChildExpression"],
    properties: [{ name: "typeRef", isAttr: true, type: "String" }],
  },
  { name: "Conditional", superClass: ["Expression"], properties: [child("if"), child("then"), child("else")] },
  { name: "Filter", superClass: ["Expression"], properties: [child("in"), child("match")] },
  {
    name: "Iterator",
    isAbstract: true,
    superClass: ["Expression"],
    properties: [{ name: "iteratorVariable", isAttr: true, type: "String" }, child("in", "TypedChildExpression")],
  },
  { name: "For", superClass: ["Iterator"], properties: [child("return")] },
  { name: "Quantified", isAbstract: true, superClass: ["Iterator"], properties: [child("satisfies")] },
  { name: "Some", superClass: ["Quantified"] },
  { name: "Every", superClass: ["Quantified"] },
];

/** The dmn package of dmn-moddle with the DMN 1.5 boxed expressions added. */
export const dmnPackage = { ...dmn13, types: [...dmn13.types, ...TYPES] };
