// The receipt the playground opens with the first time: a little of every tag.
export const SAMPLE = `<textAlignCenter><textBoldOn>CAFÉ DA ESQUINA<textBoldOff>
Av. Paulista, 1000 - São Paulo/SP
<textAlignLeft><rule/>
<row><cell width="3">1</cell><cell width="*">Café expresso</cell><cell width="10" align="right">5,00</cell></row>
<row><cell width="3">1</cell><cell width="*">Pão na chapa</cell><cell width="10" align="right">7,50</cell></row>
<textCondensedOn>Itens com desconto não acumulam<textCondensedOff>
<rule char="="/>
<textAlignRight><textSize width="2" height="2">Total R$ 12,50<textSize>
<textAlignCenter><qrcode>https://example.com/nfce?p=4223111234|2|1</qrcode>
<barcode type="ean13">789100031550</barcode>
Obrigado e até logo!
<paperCutPartial>`;
