import { useTranslation } from 'react-i18next';
import { base64Size } from '../../shared/mcp/content-blocks.js';
import type { AttachedImage } from '../../shared/schemas/attached-image.js';

/** Pictures a message carries to the model (a prompt's, a resource's), drawn small; each says its format and size. */
export function Pictures({ images, label }: { images: readonly AttachedImage[]; label: string }) {
  const { t } = useTranslation();
  return (
    <div className="pictures" role="group" aria-label={label}>
      {images.map((image, index) => (
        <img key={index} src={`data:${image.mimeType};base64,${image.data}`} alt={t('pictures.alt', { number: index + 1, type: image.mimeType, size: base64Size(image.data) })} />
      ))}
    </div>
  );
}
