// dmn-js ships no types; console/src/dmn-canvas.ts describes the part of its API it uses.
declare module "dmn-js/lib/Modeler" {
  const Modeler: new (options: { container: HTMLElement }) => unknown;
  export default Modeler;
}
