# Runtime image: Bun runs the TypeScript sources directly; data lives in the /data volume.
FROM node:20-bookworm-slim
WORKDIR /srv
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund && npm cache clean --force
COPY . .
ENV HOST=0.0.0.0 PORT=8080 DATA_DIR=/data
VOLUME ["/data"]
EXPOSE 8080
CMD ["npx", "bun", "app/http/serve.ts"]
