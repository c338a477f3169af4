// dmn-js ships no types; console/src/dmn-canvas.ts describes the part of its API it uses.
declare module "dmn-js/lib/Modeler" {
  /** A view's options: here only the additional modules (the translate service in Portuguese). */
  type ViewOptions = { additionalModules?: unknown[] };
  const Modeler: new (options: {
    container: HTMLElement;
    drd?: ViewOptions;
    decisionTable?: ViewOptions;
    literalExpression?: ViewOptions;
    boxedExpression?: ViewOptions;
  }) => unknown;
  export default Modeler;
}
