import { PDFDocument, degrees } from 'pdf-lib';
import { anchor, placeBox, rotatedExtent, visibleFrame } from './stamp';
import { undoPngPredictor } from './compress';

describe('stamp geometry', () => {
  async function page(rotation: number) {
    const doc = await PDFDocument.create();
    const p = doc.addPage([600, 800]);
    p.setRotation(degrees(rotation));
    return p;
  }

  it('maps what the reader sees to page space for every rotation', async () => {
    // The visible bottom-left corner, for each /Rotate, in unrotated page coordinates.
    const expected: Record<number, [number, number, number, number]> = {
      0: [600, 800, 0, 0],
      90: [800, 600, 600, 0],
      180: [600, 800, 600, 800],
      270: [800, 600, 0, 800],
    };
    for (const [rot, [w, h, x, y]] of Object.entries(expected)) {
      const f = visibleFrame(await page(Number(rot)));
      expect([f.width, f.height]).toEqual([w, h]);
      expect(f.toPage(0, 0)).toEqual({ x, y });
    }
  });

  it('draws upright as seen: page-space angle = wanted angle + page rotation', async () => {
    const f = visibleFrame(await page(90));
    const at = placeBox(f, 400, 300, 100, 20, 0);
    expect(at.rotate).toBe(90);
    // the box centre lands at the visible centre
    expect(f.toPage(400 - 50, 300 - 10)).toEqual({ x: at.x, y: at.y });
  });

  it('places boxes on the 9-grid with the margin', async () => {
    const f = visibleFrame(await page(0));
    expect(anchor(f, 'bottom-center', { width: 40, height: 10 }, 24)).toEqual({ x: 300, y: 29 });
    expect(anchor(f, 'top-right', { width: 40, height: 10 }, 24)).toEqual({ x: 556, y: 771 });
    expect(anchor(f, 'center', { width: 40, height: 10 }, 24)).toEqual({ x: 300, y: 400 });
    const e = rotatedExtent(100, 0, 90);
    expect(Math.round(e.width)).toBe(0);
    expect(Math.round(e.height)).toBe(100);
  });
});

describe('undoPngPredictor', () => {
  it('reverses Sub, Up, Average and Paeth rows', () => {
    // 2 pixels x 1 channel, 4 rows, one per filter type; original rows [10,20],[30,50],[40,60],[45,65]
    const data = Uint8Array.from([1, 10, 10, 2, 20, 30, 3, 25, 15, 4, 5, 5]);
    expect(Array.from(undoPngPredictor(data, 2, 1)!)).toEqual([10, 20, 30, 50, 40, 60, 45, 65]);
    expect(undoPngPredictor(Uint8Array.from([9, 1, 2]), 2, 1)).toBeUndefined();
  });
});
