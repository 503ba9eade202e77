/** The one function of `qrcode` 1.5 the server uses (the package ships no types). */
declare module "qrcode" {
  type SvgOptions = {
    type: "svg";
    errorCorrectionLevel?: "L" | "M" | "Q" | "H";
    margin?: number;
    width?: number;
  };
  const qrcode: { toString(text: string, options: SvgOptions): Promise<string> };
  export default qrcode;
}
