// The vocabulary of generated catalogs. Names combine an adjective, a material and a noun;
// descriptions draw from all lists plus WORDS, so `search` finds common and rare terms.

export const ADJECTIVES = [
  'classic', 'everyday', 'vintage', 'modern', 'rustic', 'minimal', 'bold', 'soft', 'light', 'heavy', 'slim', 'relaxed',
  'cozy', 'sturdy', 'elegant', 'urban', 'coastal', 'alpine', 'nordic', 'tropical', 'bright', 'muted', 'polished', 'woven',
  'quilted', 'padded', 'brushed', 'washed', 'tailored', 'oversized', 'compact', 'foldable', 'portable', 'waterproof',
] as const;

export const MATERIALS = [
  'linen', 'cotton', 'wool', 'merino', 'cashmere', 'silk', 'denim', 'leather', 'suede', 'canvas', 'bamboo', 'oak',
  'walnut', 'ceramic', 'porcelain', 'steel', 'copper', 'brass', 'glass', 'cork', 'hemp', 'fleece', 'velvet', 'tweed',
] as const;

export const NOUNS = [
  'shirt', 'jacket', 'sweater', 'scarf', 'hat', 'glove', 'sock', 'boot', 'sneaker', 'bag', 'backpack', 'wallet',
  'belt', 'mug', 'bowl', 'plate', 'vase', 'lamp', 'chair', 'stool', 'table', 'shelf', 'blanket', 'pillow', 'towel',
  'apron', 'notebook', 'pen', 'candle', 'clock', 'kettle', 'teapot', 'basket', 'tray', 'mirror', 'rug',
] as const;

export const WORDS = [
  'made', 'by', 'hand', 'in', 'small', 'batches', 'with', 'care', 'for', 'daily', 'use', 'and', 'long', 'life', 'gift',
  'ready', 'durable', 'breathable', 'sustainable', 'recycled', 'organic', 'fair', 'trade', 'certified', 'machine',
  'washable', 'dishwasher', 'safe', 'limited', 'edition', 'seasonal', 'favourite', 'studio', 'workshop', 'family',
  'heritage', 'craft', 'pattern', 'texture', 'finish', 'stitching', 'lining', 'pocket', 'zipper', 'button', 'handle',
  'lid', 'base', 'rim', 'glaze', 'grain', 'weave', 'knit', 'dye', 'natural', 'indigo', 'charcoal', 'ivory', 'sage',
  'terracotta', 'mustard', 'navy', 'olive', 'crimson', 'sand', 'stone', 'forest', 'ocean', 'sunset', 'meadow', 'harbor',
  'kyoto', 'lisbon', 'oslo', 'marrakesh', 'quito', 'zanzibar', 'xylophone', 'juniper', 'quartz', 'zephyr', 'fjord',
] as const;

export const FIRST_NAMES = [
  'ada', 'alan', 'grace', 'linus', 'margaret', 'dennis', 'barbara', 'ken', 'frances', 'edsger', 'radia', 'john', 'anita',
  'tim', 'hedy', 'claude', 'katherine', 'niklaus', 'sophie', 'guido', 'yukihiro', 'bjarne', 'lynn', 'donald',
] as const;

export const LAST_NAMES = [
  'lovelace', 'turing', 'hopper', 'torvalds', 'hamilton', 'ritchie', 'liskov', 'thompson', 'allen', 'dijkstra',
  'perlman', 'mccarthy', 'borg', 'bernerslee', 'lamarr', 'shannon', 'johnson', 'wirth', 'wilson', 'vanrossum',
] as const;

export const CATEGORY_TREE: Record<string, Record<string, string[]>> = {
  Apparel: { Tops: ['Shirts', 'Sweaters', 'Tees'], Outerwear: ['Jackets', 'Coats'], Accessories: ['Hats', 'Scarves', 'Gloves'] },
  Footwear: { Boots: ['Hiking', 'Chelsea'], Sneakers: ['Running', 'Court'] },
  Home: { Kitchen: ['Mugs', 'Bowls', 'Kettles'], Living: ['Lamps', 'Rugs', 'Pillows'], Bath: ['Towels', 'Mirrors'] },
  Furniture: { Seating: ['Chairs', 'Stools'], Tables: ['Dining', 'Side'], Storage: ['Shelves', 'Baskets'] },
  Stationery: { Paper: ['Notebooks', 'Cards'], Writing: ['Pens', 'Pencils'] },
  Gifts: { Seasonal: ['Candles', 'Ornaments'], Sets: ['Tea sets', 'Bath sets'] },
};
