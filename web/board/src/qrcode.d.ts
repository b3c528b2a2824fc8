// The one function the page uses from qrcode's browser build. Declared here rather than through
// @types/qrcode, which pulls Node's types (Buffer, streams) into a browser program.
declare module 'qrcode' {
  interface ToStringOptions {
    type: 'svg';
    errorCorrectionLevel?: 'L' | 'M' | 'Q' | 'H';
    margin?: number;
    width?: number;
  }
  const QRCode: { toString(text: string, options: ToStringOptions): Promise<string> };
  export default QRCode;
}
