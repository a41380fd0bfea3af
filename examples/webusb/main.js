// Compile a receipt in the browser and print it on a USB receipt printer through WebUSB, with
// @point-of-sale/webusb-receipt-printer doing the USB part. bobina's compiler runs in the page:
// nothing is sent to a server.
import { compile, hasErrors, listProfiles } from 'bobina';
import WebUSBReceiptPrinter from '@point-of-sale/webusb-receipt-printer';

const $ = (id) => document.getElementById(id);
const usb = new WebUSBReceiptPrinter();
let connected = false;

for (const p of listProfiles()) $('printer').add(new Option(`${p.id} ${p.code} — ${p.printer}`, p.code));
$('printer').value = 'MAKER5T20';

usb.addEventListener('connected', (device) => {
  connected = true;
  $('state').textContent = `connected: ${device.manufacturerName ?? ''} ${device.productName ?? ''}`.trim();
  $('print').disabled = false;
});
usb.addEventListener('disconnected', () => {
  connected = false;
  $('state').textContent = 'not connected';
  $('print').disabled = true;
});

// WebUSB asks the user to pick a device, so connecting must start from a click.
$('connect').addEventListener('click', () => usb.connect());

$('print').addEventListener('click', async () => {
  const { bytes, diagnostics } = compile($('conteudo').value, { printer: $('printer').value });
  $('diagnostics').textContent = diagnostics.map((d) => `${d.span.start.line}:${d.span.start.column} ${d.severity} ${d.code}: ${d.message}`).join('\n');
  if (hasErrors(diagnostics)) return; // the job is not what was asked for: don't print it
  if (connected) await usb.print(bytes);
});
