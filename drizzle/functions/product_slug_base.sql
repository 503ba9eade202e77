CREATE OR REPLACE FUNCTION "product_slug_base"(product_name text) RETURNS text LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  base text;
BEGIN
  base := lower(translate(coalesce(product_name, ''),
    'ÀÁÂÃÄÅàáâãäåÇçÈÉÊËèéêëÌÍÎÏìíîïÑñÒÓÔÕÖØòóôõöøÙÚÛÜùúûüÝýÿ',
    'AAAAAAaaaaaaCcEEEEeeeeIIIIiiiiNnOOOOOOooooooUUUUuuuuYyy'));
  base := replace(base, '&', ' and ');
  base := trim(BOTH '-' FROM regexp_replace(base, '[^a-z0-9]+', '-', 'g'));
  base := trim(BOTH '-' FROM left(base, 80));
  IF base = '' THEN
    base := 'product';
  END IF;
  RETURN base;
END
$$;
