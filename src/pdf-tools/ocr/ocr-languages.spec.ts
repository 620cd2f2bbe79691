import { characterErrorRate, detectLanguage, editDistance } from './ocr-languages';

describe('OCR languages', () => {
  it('tells the four languages by their short words, English when nothing tells', () => {
    expect(detectLanguage('The invoice was paid on the first of the month and is in order.')).toBe('eng');
    expect(detectLanguage('Die Rechnung ist bezahlt und der Betrag wurde mit dem Konto verrechnet.')).toBe('deu');
    expect(detectLanguage('La facture est payée et le montant a été versé sur le compte pour nous.')).toBe('fra');
    expect(detectLanguage('La factura fue pagada y el importe se abonó en la cuenta para los clientes.')).toBe('spa');
    expect(detectLanguage('12345 67890')).toBe('eng');
  });

  it('measures the character error rate with whitespace runs as one space', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(characterErrorRate('a  b\nc', 'a b c')).toBe(0);
    expect(characterErrorRate('abcd', 'abed')).toBe(0.25);
  });
});
